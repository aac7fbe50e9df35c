-- SPDX-License-Identifier: Apache-2.0
-- Stores a decided document, unless the decision is stale: the conflict check of a check-and-insert
-- across service nodes. The decision was made from a probe that saw ordinals up to seen; it
-- still holds when no document above that ordinal is a candidate under the query's keys (within k
-- bits under a block key, an entry equal to one of the query's in a band bucket), every match is
-- still stored, and every match's
-- cluster root is the one the probe saw. Then the document gets the next ordinal and joins the
-- clusters of its matches, whose earliest root represents the union. Redis runs a script alone, so
-- the check and the insert are one step.
-- A block key is a string of entries, 5-byte ordinal then the fingerprint's bits outside the block
-- (w bytes), in ascending ordinal order: an insert appends, a removal cuts its entry out, so
-- the entries above the probe's ordinal are the last ones. A band bucket is a string of 8-byte
-- entries the same way, 5-byte ordinal then the low 3 bytes of a band key (BandEntries).
-- A call's KEYS: 1 meta, 2 seq, 3 p, 4 r, 5 st, 6 x (shared by its commits), then each commit's:
--       the id's bucket of i, nb block keys, nk distinct band buckets, then one member set per
--       distinct root (ARGV order).
-- A call's ARGV: 1 number of commits c, 2 seen (the sequence number the probes read), 3 k, 4 nb,
--       5 key base, 6 rest width w, 7 '1' to APPEND the entries, '0' to write each key whole (the
--       store's append-entries), 8 the removals counter (st's field 'removals') the probes read
--       before their keys, then each commit's: 1 id, 2 record, 3 sketch ('' for none), 4
--       its blob, these parts one after the other: its shape, a byte nk (+ 128 when an expiry
--       follows), 3 bytes n (the number of matches), 3 bytes nr (of distinct roots), then per band
--       bucket the number of the query's band rests in it (a byte each); when flagged, a byte L
--       and expiresAt in L decimal digits; the query's nb block rests (w bytes each); the probe's
--       tails: per block key then per band bucket 9 bytes, the offset (4 bytes, big endian) of the
--       first entry above seen in the string the probe read (its length when none) and the 5-byte
--       ordinal of the entry just before that offset (zeros at offset 0); the query's distinct
--       band rests by band bucket (3 bytes each) to the end; then n pairs (ordinal, root), then nr
--       distinct roots (ascending).
-- Why a shape (issue 15, redis-server CPU): an argument costs Redis ~1,000 instructions (parsed,
-- made an object, pushed into Lua as a new string); the counts, the expiry and the band rests by
-- bucket were 4 + nk of them, ~9.5 per document, read here with string.byte and string.sub.
-- Why one blob (issue 15, redis-server CPU, the same reason): the shape, the block rests, the tails
-- and the band rests are only read here with string.byte and string.sub at computed offsets, so
-- they need not be four strings; a string pushed into Lua costs ~1,070 instructions besides its
-- bytes (callgrind, replayed run: KEYS and ARGV pushed 31,943 per document for ~20.3 strings and
-- ~1,140 bytes at ~9 a byte), and each argument ~370 more to parse.
-- Why tails (issue 15, redis-server CPU): Redis's Lua copies every string it brings in into a new
-- interned string (luaS_newlstr, ~15% of redis-server's CPU when the commit read whole keys and
-- wrote them back concatenated). The conflict check reads only from the entry before the probe's tail on
-- (GETRANGE): when that entry is still there, every entry above seen lies after it (entries ascend
-- by ordinal); when it is not (a removal cut the key since the probe), the whole key is read as
-- before. The insert APPENDs its entries, so no key's old bytes pass through Lua. APPEND leaves the
-- string room to grow (Redis doubles the allocation when it must grow it): ~25% more memory on
-- block keys and band buckets on average (see BENCHMARKS); with append-entries=false the commit
-- writes each key whole (GET and SET), leaving no room, at the old cost in CPU.
-- Why append first (issue 15, redis-server CPU: each redis.call costs more than its command):
-- when no removal ran since the probe (st's 'removals' is the one the probe read before its keys;
-- remove.lua counts every removal there) a key has only grown since the probe read it, so the
-- entries above seen are exactly the bytes from the probe's tail offset to the key's length before
-- this commit's APPEND, which APPEND's answer gives: a key nobody wrote since costs one call (the
-- APPEND) instead of two (GETRANGE and APPEND), and a key that did grow is read from the tail
-- offset to before this commit's own entries. A conflict found there takes back what this commit
-- appended (each key cut back to its length before, rare) and answers retry. After a removal, and
-- with append-entries=false, the keys are checked before they are written, as before.
-- Why not one MGET and one MSET per call instead of an APPEND per key (issue 15, redis-server CPU;
-- tried and measured): Redis's Lua hashes every byte of every string it brings in (luaS_newlstr,
-- 9 instructions a byte; a reply read by redis.call costs ~11 a byte in all), so reading a call's
-- keys whole and writing them back concatenated costs more than the ~2,400 instructions of each
-- redis.call it saves: the same captured 20,000 singles, same final state, 379,553 instructions
-- per document against 233,140 with APPENDs (batches 479,878 against 351,575). It would also
-- write whole keys to the AOF at every call instead of their new entries.
-- Record and sketch buckets (base .. 'd' / 's' .. floor(ordinal / 128), field ordinal % 128) share
-- the hash tag of the declared keys, so they live in the same slot.
-- Each commit answers {'stored', ordinal} (a new document), {'stored', ordinal, the id of the
-- cluster's root} (a duplicate: the probe does not read the ids of its candidates' roots),
-- {'exists', record, root id}, {'retry'}, or {'dropped'}.
-- One call carries the commits of a whole batch round, run in order (one script call instead of
-- one per document), each commit's keys and arguments after the call's shared ones (each commit's
-- counts nk, n and nr say where the next one begins). The first commit that
-- answers retry or dropped ends the call: the documents of a batch are stored in batch order, each
-- decided against everything stored before it. Returns the answers of the commits that ran.
-- What is the same for every commit of a call is done once per call (issue 15, speed): the meta
-- check, reading seq (kept in a local and written back once), the counters (one HINCRBY each with
-- the call's totals) and the expiry index (one ZADD LT per record bucket touched). Redis runs the
-- whole call alone, so nobody sees the deferred writes missing.
-- Why no per-commit closures, argument copies or number formatting (issue 15, redis-server CPU):
-- Lua's own work cost more than the commands it runs. Replaying a captured 20,000-document run
-- under callgrind, redis-server spent ~302,000 instructions per document in the commits, 17% of
-- them in the Lua VM; each commit then made about a dozen closures, copied its keys and arguments
-- into tables of their own, and formatted its bucket numbers into key names (sprintf). The helpers
-- below are made once per call and read KEYS and ARGV in place; key names, small numbers and the
-- reusable append log are kept per call: ~253,000 instructions per document, the same Redis state
-- (DEBUG DIGEST) after the same commands. An argument of a script call costs Redis ~1,000
-- instructions (parsed, copied, hashed into a Lua string): what the commits of a call share is
-- passed once per call, 15 arguments fewer per document.
-- Globals read once per call into locals (issue 15, redis-server CPU): reading a global is a table
-- lookup, a library function two, and a commit reads them ~40 times.
local KEYS, ARGV = KEYS, ARGV
local call = redis.call
local byte, sub, char, format = string.byte, string.sub, string.char, string.format
-- Numbers are passed to redis.call as strings made by format('%d') (issue 15, redis-server CPU):
-- Redis turns a Lua number argument into a string with snprintf('%.17g'), a floating-point
-- conversion; measured under callgrind, 10,000 redis.call('ECHO', n) in one script cost ~3,040
-- instructions each more than with a constant string, with format('%d', n) ~1,920 more. The same
-- bytes either way for integers below 2^53. The replayed 20,000-document run: 0.9935x.
local floor = math.floor
local bxor, band, rshift = bit.bxor, bit.band, bit.rshift
local pop = {[0] = 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}
local seq = nil
local removals = nil
local stored, duplicates = 0, 0
local expiries = {}
-- The records and sketches stored by this call, written at its end with one HSET per bucket (two
-- calls per document fewer: a call's ordinals follow each other, 128 to a bucket): by bucket key
-- the field, value list, and by ordinal the record, for the call's own reads.
local records, sketches, pending = {}, {}, {}
local function later(t, key, f, v)
  local l = t[key]
  if l == nil then
    l = {}
    t[key] = l
  end
  l[#l + 1] = f
  l[#l + 1] = v
end
-- The names of the record and sketch buckets by bucket number, made once per call (a call's
-- ordinals share a few buckets; a number in a string costs Lua a sprintf).
local recordKeys, sketchKeys = {}, {}
-- Where the commit in progress appended: {key, length before} pairs, reused by every commit.
local done = {}
local function recordKey(base, b)
  local key = recordKeys[b]
  if key == nil then
    key = base .. 'd' .. b
    recordKeys[b] = key
  end
  return key
end
local function sketchKey(base, b)
  local key = sketchKeys[b]
  if key == nil then
    key = base .. 's' .. b
    sketchKeys[b] = key
  end
  return key
end
-- The field of ordinal o in its record and sketch buckets, o % 128 in decimal, cut from a constant
-- rather than formatted (tostring of a number is a sprintf: ~2,500 instructions).
-- One literal: Lua 5.1 does not fold a concatenation of constants, so '..' here would build and
-- hash the 276-byte string again at every call.
local FIELDS = '0123456789101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899100101102103104105106107108109110111112113114115116117118119120121122123124125126127'
local function field(o)
  local f = o % 128
  if f < 10 then
    return sub(FIELDS, f + 1, f + 1)
  elseif f < 100 then
    return sub(FIELDS, 2 * f - 9, 2 * f - 8)
  end
  return sub(FIELDS, 3 * f - 109, 3 * f - 107)
end
local function recordOf(base, o)
  return pending[o] or call('HGET', recordKey(base, floor(o / 128)), field(o))
end
-- Gives back the id's entry claimed by a commit that must be decided again.
local function retry(idKey, id)
  call('HDEL', idKey, id)
  return {'retry'}
end
-- The offset (4 bytes, big endian) of key i's probe tail.
local function tailOffset(blob, to, i)
  local a, b, c, d = byte(blob, to + (i - 1) * 9 + 1, to + (i - 1) * 9 + 4)
  return ((a * 256 + b) * 256 + c) * 256 + d
end
-- The bytes of key i (1-based over block keys then band buckets) that may hold entries above
-- seen: from the probe's last entry at or below seen on, or the whole key when that moved.
local function tail(key, blob, to, i, width)
  local off = tailOffset(blob, to, i)
  if off == 0 then
    return call('GET', key) or ''
  end
  local s = call('GETRANGE', key, format('%d', off - width), '-1')
  local t = to + (i - 1) * 9
  if sub(s, 1, 5) == sub(blob, t + 5, t + 9) then
    return s
  end
  return call('GET', key) or ''
end
-- The 5-byte ordinal of the entry at byte at of s.
local function ordinalAt(s, at)
  local a, b, c, d, e = byte(s, at, at + 4)
  return (((a * 256 + b) * 256 + c) * 256 + d) * 256 + e
end
-- Whether the entries of s (a key's bytes, whole entries of w + 5 bytes) above seen hold one
-- within k bits of the query's block rest i.
local function blockConflict(s, blob, ro, i, w, seen, k)
  local ew = 5 + w
  local at = #s - ew + 1
  if at < 1 then
    return false
  end
  local q = {byte(blob, ro + (i - 1) * w + 1, ro + i * w)}
  while at >= 1 do
    if ordinalAt(s, at) <= seen then
      return false
    end
    local dist = 0
    for j = 1, w do
      local x = bxor(q[j], byte(s, at + 4 + j))
      dist = dist + pop[band(x, 15)] + pop[rshift(x, 4)]
    end
    if dist <= k then
      return true
    end
    at = at - ew
  end
  return false
end
-- Whether the entries of band bucket string s above seen hold one equal to one of the query's band
-- rests q there (3 bytes each, concatenated).
local function bandConflict(s, q, seen)
  local at = #s - 7
  while at >= 1 do
    if ordinalAt(s, at) <= seen then
      return false
    end
    local r = sub(s, at + 5, at + 7)
    for j = 1, #q, 3 do
      if sub(q, j, j + 2) == r then
        return true
      end
    end
    at = at - 8
  end
  return false
end
-- A document's entries in one band bucket: the ordinal ob before each of its band rests q there.
local function bandEntries(ob, q)
  if #q == 3 then
    return ob .. q
  end
  local add = {}
  for j = 1, #q, 3 do
    add[#add + 1] = ob .. sub(q, j, j + 2)
  end
  return table.concat(add)
end
-- The bytes of key i above seen before this commit's entries, given its length pre then (see "Why
-- append first").
local function since(key, blob, to, i, pre)
  local off = tailOffset(blob, to, i)
  if pre == off or pre == 0 then
    return ''
  end
  -- Shorter than at the probe cannot happen without a removal: read the key whole then.
  return call('GETRANGE', key, pre > off and format('%d', off) or '0', format('%d', pre - 1))
end
-- Cuts each key a commit appended to back to its length before ({key, length} pairs in done).
local function undo(count)
  for j = 1, 2 * count, 2 do
    if done[j + 1] == 0 then
      call('DEL', done[j])
    else
      call('SET', done[j], call('GETRANGE', done[j], '0', format('%d', done[j + 1] - 1)))
    end
  end
end
-- What every commit of a call shares, passed once per call (issue 15, redis-server CPU: each
-- argument of a script call costs Redis ~1,000 instructions to parse, copy and hash into Lua).
local seqKey, parentKey, rootIdKey, statsKey, expiryKey = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local seen = tonumber(ARGV[2])
local k = tonumber(ARGV[3])
local nb = tonumber(ARGV[4])
local base = ARGV[5]
local w = tonumber(ARGV[6])
local append = ARGV[7] == '1'
local probedRemovals = ARGV[8]
local ew = 5 + w
-- One commit; its keys are KEYS[K + 1 ..], its arguments ARGV[A + 1 ..] (read in place, not
-- copied), nk, n and nr its counts of band buckets, matches and distinct roots (from its shape).
local function commit(K, A, nk, n, nr)
  local id = ARGV[A + 1]
  local idKey = KEYS[K + 1]
  if seq == nil then
    seq = tonumber(call('GET', seqKey) or '0')
  end
  local o = seq + 1
  -- The id's entry is claimed first (HSETNX) and given back if the commit must retry: one call
  -- for the check and the write of the id (issue 15, redis-server CPU).
  local od = format('%d', o)
  if call('HSETNX', idKey, id, od) == 0 then
    local existing = call('HGET', idKey, id)
    local rec = recordOf(base, tonumber(existing))
    local root = call('HGET', parentKey, existing)
    local rootId = id
    if root then
      rootId = call('HGET', rootIdKey, root) or ''
    end
    return {'exists', rec, rootId}
  end
  -- The commit's blob (ARGV[A + 4]): where its parts begin (rest byte j of the query's block rests
  -- is at ro + j, tail byte j at to + j, the band rests from bo on).
  local blob = ARGV[A + 4]
  local ro = 7 + nk
  local ex = nil
  if byte(blob, 1) >= 128 then
    local len = byte(blob, 8 + nk)
    ex = sub(blob, 9 + nk, 8 + nk + len)
    ro = 8 + nk + len
  end
  local to = ro + nb * w
  local bo = to + 9 * (nb + nk) + 1
  if removals == nil then
    removals = call('HGET', statsKey, 'removals') or '0'
  end
  local fast = append and removals == probedRemovals
  if not fast and seq > seen then
    for i = 1, nb do
      if blockConflict(tail(KEYS[K + 1 + i], blob, to, i, ew), blob, ro, i, w, seen, k) then
        return retry(idKey, id)
      end
    end
    local p = bo
    for i = 1, nk do
      local q = sub(blob, p, p + 3 * byte(blob, 7 + i) - 1)
      p = p + #q
      if bandConflict(tail(KEYS[K + 1 + nb + i], blob, to, nb + i, 8), q, seen) then
        return retry(idKey, id)
      end
    end
  end
  local mbase = A + 4
  for j = 1, n do
    local ms = ARGV[mbase + 2 * j - 1]
    local m = tonumber(ms)
    if not pending[m]
        and call('HEXISTS', recordKey(base, floor(m / 128)), field(m)) == 0 then
      return retry(idKey, id)
    end
    local root = call('HGET', parentKey, ms) or ms
    if root ~= ARGV[mbase + 2 * j] then
      return retry(idKey, id)
    end
  end
  -- The 5-byte ordinal, by arithmetic on the (integral) number rather than math.floor calls.
  local b5 = o % 256
  local x = (o - b5) / 256
  local b4 = x % 256
  x = (x - b4) / 256
  local b3 = x % 256
  x = (x - b3) / 256
  local b2 = x % 256
  local ob = char(((x - b2) / 256) % 256, b2, b3, b4, b5)
  if fast then
    -- Append, then check what was appended since the probe (see "Why append first" above).
    -- A key nobody appended to since the probe (its length before this commit's APPEND is the
    -- probe's tail offset) needs no further call and no helper (issue 15, redis-server CPU: the
    -- Lua VM's own work was a fifth of Redis's instructions per document).
    for i = 1, nb do
      local key = KEYS[K + 1 + i]
      local pre = call('APPEND', key, ob .. sub(blob, ro + (i - 1) * w + 1, ro + i * w)) - ew
      done[2 * i - 1] = key
      done[2 * i] = pre
      local t = 9 * i - 9
      local a, b, c, d = byte(blob, to + t + 1, to + t + 4)
      if pre ~= ((a * 256 + b) * 256 + c) * 256 + d and pre ~= 0
          and blockConflict(since(key, blob, to, i, pre), blob, ro, i, w, seen, k) then
        undo(i)
        return retry(idKey, id)
      end
    end
    local p = bo
    for i = 1, nk do
      local key = KEYS[K + 1 + nb + i]
      local q = sub(blob, p, p + 3 * byte(blob, 7 + i) - 1)
      p = p + #q
      local e = bandEntries(ob, q)
      local pre = call('APPEND', key, e) - #e
      done[2 * (nb + i) - 1] = key
      done[2 * (nb + i)] = pre
      local t = 9 * (nb + i) - 9
      local a, b, c, d = byte(blob, to + t + 1, to + t + 4)
      if pre ~= ((a * 256 + b) * 256 + c) * 256 + d and pre ~= 0
          and bandConflict(since(key, blob, to, nb + i, pre), q, seen) then
        undo(nb + i)
        return retry(idKey, id)
      end
    end
  else
    for i = 1, nb do
      local key = KEYS[K + 1 + i]
      local e = ob .. sub(blob, ro + (i - 1) * w + 1, ro + i * w)
      if append then
        call('APPEND', key, e)
      else
        call('SET', key, (call('GET', key) or '') .. e)
      end
    end
    local p = bo
    for i = 1, nk do
      local key = KEYS[K + 1 + nb + i]
      local q = sub(blob, p, p + 3 * byte(blob, 7 + i) - 1)
      p = p + #q
      local e = bandEntries(ob, q)
      if append then
        call('APPEND', key, e)
      else
        call('SET', key, (call('GET', key) or '') .. e)
      end
    end
  end
  seq = o
  pending[o] = ARGV[A + 2]
  local b = floor(o / 128)
  local f = field(o)
  later(records, recordKey(base, b), f, ARGV[A + 2])
  if ARGV[A + 3] ~= '' then
    later(sketches, sketchKey(base, b), f, ARGV[A + 3])
  end
  if ex ~= nil then
    -- x scores each record bucket by the earliest expiry in it (LT keeps the smaller score).
    local e = tonumber(ex)
    if expiries[b] == nil or e < expiries[b] then
      expiries[b] = e
    end
  end
  stored = stored + 1
  if nr > 0 then
    duplicates = duplicates + 1
    local rootBase = mbase + 2 * n
    local first = ARGV[rootBase + 1]
    local firstSet = KEYS[K + 1 + nb + nk + 1]
    local rootId
    if call('EXISTS', firstSet) == 0 then
      -- A live single document becomes a cluster of several: file it and keep its id.
      local rec = recordOf(base, tonumber(first))
      local h = byte(rec, 17) -- the id after header, explicit expiry, band keys (DocRecord)
      rootId = sub(rec, 18 + (h >= 130 and 8 or 0) + 8 * (h % 65))
      call('SADD', firstSet, first)
      call('HSET', rootIdKey, first, rootId)
    else
      rootId = call('HGET', rootIdKey, first) or ''
    end
    for j = 2, nr do
      local r = ARGV[rootBase + j]
      local set = KEYS[K + 1 + nb + nk + j]
      local members = call('SMEMBERS', set)
      if #members == 0 then
        members = {r}
      end
      for _, m in ipairs(members) do
        call('SADD', firstSet, m)
        call('HSET', parentKey, m, first)
      end
      call('DEL', set)
      call('HDEL', rootIdKey, r)
    end
    call('SADD', firstSet, od)
    call('HSET', parentKey, od, first)
    return {'stored', o, rootId}
  end
  return {'stored', o}
end

if call('EXISTS', KEYS[1]) == 0 then
  return {{'dropped'}}
end
local c = tonumber(ARGV[1])
local kpos = 6
local apos = 8
local answers = {}
for j = 1, c do
  local h, n1, n2, n3, r1, r2, r3 = byte(ARGV[apos + 4], 1, 7)
  local nk = h % 128
  local n = (n1 * 256 + n2) * 256 + n3
  local nr = (r1 * 256 + r2) * 256 + r3
  local answer = commit(kpos, apos, nk, n, nr)
  kpos = kpos + 1 + nb + nk + nr
  apos = apos + 4 + 2 * n + nr
  answers[j] = answer
  if answer[1] == 'retry' then
    break
  end
end
for key, l in pairs(records) do
  call('HSET', key, unpack(l))
end
for key, l in pairs(sketches) do
  call('HSET', key, unpack(l))
end
if stored > 0 then
  local n = format('%d', stored)
  call('SET', seqKey, format('%d', seq))
  call('HINCRBY', statsKey, 'inserted', n)
  call('HINCRBY', statsKey, 'documents', n)
  if duplicates > 0 then
    call('HINCRBY', statsKey, 'duplicates', format('%d', duplicates))
  end
  for b, e in pairs(expiries) do
    call('ZADD', expiryKey, 'LT', format('%d', e), format('%d', b))
  end
end
return answers
