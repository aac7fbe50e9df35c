-- SPDX-License-Identifier: Apache-2.0
-- Stores a decided document, unless the decision is stale: the conflict check of a check-and-insert
-- across service nodes. The decision was made from a probe that saw ordinals up to ARGV[1]; it
-- still holds when no document above that ordinal is a candidate under the query's keys (within k
-- bits under a block key, an entry equal to one of the query's in a band bucket), every match is
-- still stored, and every match's
-- cluster root is the one the probe saw. Then the document gets the next ordinal and joins the
-- clusters of its matches, whose earliest root represents the union. Redis runs a script alone, so
-- the check and the insert are one step.
-- A block key is a string of entries, 5-byte ordinal then the fingerprint's bits outside the block
-- (ARGV[12] bytes), in ascending ordinal order: an insert appends, a removal cuts its entry out, so
-- the entries above the probe's ordinal are the last ones. A band bucket is a string of 8-byte
-- entries the same way, 5-byte ordinal then the low 3 bytes of a band key (BandEntries).
-- A commit's KEYS: 1 meta, 2 seq, 3 p, 4 r, 5 st, 6 x, 7 the id's bucket of i,
--       then nb block keys, nk distinct band buckets, then one member set per distinct root (ARGV
--       order).
-- A commit's ARGV: 1 seen, 2 id, 3 record, 4 sketch ('' for none), 5 expiresAt ('' for never), 6 k,
--       7 nb, 8 nk, 9 number of matches n, 10 number of distinct roots nr, 11 key base,
--       12 rest width w, 13 the query's nb block rests (w bytes each, concatenated),
--       14 the probe's tails: per block key then per band bucket 9 bytes, the offset (4 bytes, big
--       endian) of the first entry above seen in the string the probe read (its length when none)
--       and the 5-byte ordinal of the entry just before that offset (zeros at offset 0),
--       15 '1' to APPEND the entries, '0' to write each key whole (the store's append-entries),
--       16 the removals counter (st's field 'removals') the probe read before its keys,
--       then per band bucket the query's distinct band rests in it (3 bytes each, concatenated),
--       then n pairs (ordinal, root), then nr distinct roots (ascending).
-- Why tails (issue 15, redis-server CPU): Redis's Lua hashes every byte of every string it brings
-- in (luaS_newlstr, ~15% of redis-server's CPU when the commit read whole keys and wrote them back
-- concatenated). The conflict check reads only from the entry before the probe's tail on
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
-- Record and sketch buckets (base .. 'd' / 's' .. floor(ordinal / 128), field ordinal % 128) share
-- the hash tag of the declared keys, so they live in the same slot.
-- Each commit answers {'stored', ordinal} (a new document), {'stored', ordinal, the id of the
-- cluster's root} (a duplicate: the probe does not read the ids of its candidates' roots),
-- {'exists', record, root id}, {'retry'}, or {'dropped'}.
-- One call carries the commits of a whole batch round, run in order (one script call instead of
-- one per document): ARGV[1] is their number c, ARGV[2 .. 1 + 2c] their key and argument counts,
-- then each commit's arguments; KEYS each commit's keys, in the same order. The first commit that
-- answers retry or dropped ends the call: the documents of a batch are stored in batch order, each
-- decided against everything stored before it. Returns the answers of the commits that ran.
-- What is the same for every commit of a call is done once per call (issue 15, speed): the meta
-- check, reading seq (kept in a local and written back once), the counters (one HINCRBY each with
-- the call's totals) and the expiry index (one ZADD LT per record bucket touched). Redis runs the
-- whole call alone, so nobody sees the deferred writes missing.
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
local function commit(KEYS, ARGV)
  local nb = tonumber(ARGV[7])
  local nk = tonumber(ARGV[8])
  local n = tonumber(ARGV[9])
  local nr = tonumber(ARGV[10])
  local base = ARGV[11]
  local w = tonumber(ARGV[12])
  local function bucket(o)
    return math.floor(o / 128)
  end
  local function field(o)
    return tostring(o % 128)
  end
  local function recordOf(o)
    return pending[o] or redis.call('HGET', base .. 'd' .. bucket(o), field(o))
  end
  local id = ARGV[2]
  if seq == nil then
    seq = tonumber(redis.call('GET', KEYS[2]) or '0')
  end
  local o = seq + 1
  -- The id's entry is claimed first (HSETNX) and given back if the commit must retry: one call
  -- for the check and the write of the id (issue 15, redis-server CPU).
  if redis.call('HSETNX', KEYS[7], id, o) == 0 then
    local existing = redis.call('HGET', KEYS[7], id)
    local rec = recordOf(tonumber(existing))
    local root = redis.call('HGET', KEYS[3], existing)
    local rootId = id
    if root then
      rootId = redis.call('HGET', KEYS[4], root) or ''
    end
    return {'exists', rec, rootId}
  end
  local function retry()
    redis.call('HDEL', KEYS[7], id)
    return {'retry'}
  end
  local seen = tonumber(ARGV[1])
  local k = tonumber(ARGV[6])
  local rests = ARGV[13]
  local tails = ARGV[14]
  local ew = 5 + w
  -- The bytes of key i (1-based over block keys then band buckets) that may hold entries above
  -- seen: from the probe's last entry at or below seen on, or the whole key when that moved.
  local function tail(key, i, width)
    local t = (i - 1) * 9
    local a, b, c, d = string.byte(tails, t + 1, t + 4)
    local off = ((a * 256 + b) * 256 + c) * 256 + d
    if off == 0 then
      return redis.call('GET', key) or ''
    end
    local s = redis.call('GETRANGE', key, off - width, -1)
    if string.sub(s, 1, 5) == string.sub(tails, t + 5, t + 9) then
      return s
    end
    return redis.call('GET', key) or ''
  end
  -- Whether the entries of s (a key's bytes, whole entries of width ew) above seen hold one within
  -- k bits of the query's block rest i.
  local function blockConflict(s, i)
    local q = {string.byte(rests, (i - 1) * w + 1, i * w)}
    local at = #s - ew + 1
    while at >= 1 do
      local a, b, c, d, e = string.byte(s, at, at + 4)
      local o = (((a * 256 + b) * 256 + c) * 256 + d) * 256 + e
      if o <= seen then
        return false
      end
      local dist = 0
      for j = 1, w do
        local x = bit.bxor(q[j], string.byte(s, at + 4 + j))
        dist = dist + pop[bit.band(x, 15)] + pop[bit.rshift(x, 4)]
      end
      if dist <= k then
        return true
      end
      at = at - ew
    end
    return false
  end
  -- Whether the entries of band bucket string s above seen hold one equal to a query's band rest
  -- of bucket i.
  local function bandConflict(s, i)
    local q = ARGV[16 + i]
    local at = #s - 7
    while at >= 1 do
      local a, b, c, d, e = string.byte(s, at, at + 4)
      local o = (((a * 256 + b) * 256 + c) * 256 + d) * 256 + e
      if o <= seen then
        return false
      end
      local r = string.sub(s, at + 5, at + 7)
      for j = 1, #q, 3 do
        if string.sub(q, j, j + 2) == r then
          return true
        end
      end
      at = at - 8
    end
    return false
  end
  local append = ARGV[15] == '1'
  if removals == nil then
    removals = redis.call('HGET', KEYS[5], 'removals') or '0'
  end
  local fast = append and removals == ARGV[16]
  if not fast and seq > seen then
    for i = 1, nb do
      if blockConflict(tail(KEYS[7 + i], i, ew), i) then
        return retry()
      end
    end
    for i = 1, nk do
      if bandConflict(tail(KEYS[7 + nb + i], nb + i, 8), i) then
        return retry()
      end
    end
  end
  local mbase = 16 + nk
  for j = 1, n do
    local m = tonumber(ARGV[mbase + 2 * j - 1])
    if not pending[m] and redis.call('HEXISTS', base .. 'd' .. bucket(m), field(m)) == 0 then
      return retry()
    end
    local root = redis.call('HGET', KEYS[3], ARGV[mbase + 2 * j - 1]) or ARGV[mbase + 2 * j - 1]
    if root ~= ARGV[mbase + 2 * j] then
      return retry()
    end
  end
  local ob = string.char(math.floor(o / 4294967296) % 256, math.floor(o / 16777216) % 256,
    math.floor(o / 65536) % 256, math.floor(o / 256) % 256, o % 256)
  local function bandEntries(i)
    local q = ARGV[16 + i]
    local add = {}
    for j = 1, #q, 3 do
      add[#add + 1] = ob .. string.sub(q, j, j + 2)
    end
    return table.concat(add)
  end
  if fast then
    -- Append, then check what was appended since the probe (see "Why append first" above).
    local done = {}
    local function undo()
      for j = 1, #done, 2 do
        if done[j + 1] == 0 then
          redis.call('DEL', done[j])
        else
          redis.call('SET', done[j], redis.call('GETRANGE', done[j], 0, done[j + 1] - 1))
        end
      end
      return retry()
    end
    -- The bytes of key i above seen before this commit's entries, given its length pre then.
    local function since(key, i, pre)
      local t = (i - 1) * 9
      local a, b, c, d = string.byte(tails, t + 1, t + 4)
      local off = ((a * 256 + b) * 256 + c) * 256 + d
      if pre == off or pre == 0 then
        return ''
      end
      -- Shorter than at the probe cannot happen without a removal: read the key whole then.
      return redis.call('GETRANGE', key, pre > off and off or 0, pre - 1)
    end
    for i = 1, nb do
      local key = KEYS[7 + i]
      local e = ob .. string.sub(rests, (i - 1) * w + 1, i * w)
      local pre = redis.call('APPEND', key, e) - #e
      done[#done + 1] = key
      done[#done + 1] = pre
      if blockConflict(since(key, i, pre), i) then
        return undo()
      end
    end
    for i = 1, nk do
      local key = KEYS[7 + nb + i]
      local e = bandEntries(i)
      local pre = redis.call('APPEND', key, e) - #e
      done[#done + 1] = key
      done[#done + 1] = pre
      if bandConflict(since(key, nb + i, pre), i) then
        return undo()
      end
    end
  else
    local function write(key, entries)
      if append then
        redis.call('APPEND', key, entries)
      else
        redis.call('SET', key, (redis.call('GET', key) or '') .. entries)
      end
    end
    for i = 1, nb do
      write(KEYS[7 + i], ob .. string.sub(rests, (i - 1) * w + 1, i * w))
    end
    for i = 1, nk do
      write(KEYS[7 + nb + i], bandEntries(i))
    end
  end
  seq = o
  pending[o] = ARGV[3]
  local f = field(o)
  later(records, base .. 'd' .. bucket(o), f, ARGV[3])
  if ARGV[4] ~= '' then
    later(sketches, base .. 's' .. bucket(o), f, ARGV[4])
  end
  if ARGV[5] ~= '' then
    -- x scores each record bucket by the earliest expiry in it (LT keeps the smaller score).
    local b = bucket(o)
    local e = tonumber(ARGV[5])
    if expiries[b] == nil or e < expiries[b] then
      expiries[b] = e
    end
  end
  stored = stored + 1
  if nr > 0 then
    duplicates = duplicates + 1
    local rootBase = mbase + 2 * n
    local first = ARGV[rootBase + 1]
    local firstSet = KEYS[7 + nb + nk + 1]
    local rootId
    if redis.call('EXISTS', firstSet) == 0 then
      -- A live single document becomes a cluster of several: file it and keep its id.
      local rec = recordOf(tonumber(first))
      local h = string.byte(rec, 17) -- the id after header, explicit expiry, band keys (DocRecord)
      rootId = string.sub(rec, 18 + (h >= 130 and 8 or 0) + 8 * (h % 65))
      redis.call('SADD', firstSet, first)
      redis.call('HSET', KEYS[4], first, rootId)
    else
      rootId = redis.call('HGET', KEYS[4], first) or ''
    end
    for j = 2, nr do
      local r = ARGV[rootBase + j]
      local set = KEYS[7 + nb + nk + j]
      local members = redis.call('SMEMBERS', set)
      if #members == 0 then
        members = {r}
      end
      for _, m in ipairs(members) do
        redis.call('SADD', firstSet, m)
        redis.call('HSET', KEYS[3], m, first)
      end
      redis.call('DEL', set)
      redis.call('HDEL', KEYS[4], r)
    end
    redis.call('SADD', firstSet, o)
    redis.call('HSET', KEYS[3], o, first)
    return {'stored', o, rootId}
  end
  return {'stored', o}
end

if redis.call('EXISTS', KEYS[1]) == 0 then
  return {{'dropped'}}
end
local c = tonumber(ARGV[1])
local kpos = 1
local apos = 2 + 2 * c
local answers = {}
for j = 1, c do
  local nkeys = tonumber(ARGV[2 * j])
  local nargs = tonumber(ARGV[2 * j + 1])
  local answer = commit({unpack(KEYS, kpos, kpos + nkeys - 1)}, {unpack(ARGV, apos, apos + nargs - 1)})
  kpos = kpos + nkeys
  apos = apos + nargs
  answers[j] = answer
  if answer[1] == 'retry' then
    break
  end
end
for key, l in pairs(records) do
  redis.call('HSET', key, unpack(l))
end
for key, l in pairs(sketches) do
  redis.call('HSET', key, unpack(l))
end
if stored > 0 then
  -- KEYS[2], KEYS[5], KEYS[6]: seq, st and x, the same for every commit of the call.
  redis.call('SET', KEYS[2], string.format('%.0f', seq))
  redis.call('HINCRBY', KEYS[5], 'inserted', stored)
  redis.call('HINCRBY', KEYS[5], 'documents', stored)
  if duplicates > 0 then
    redis.call('HINCRBY', KEYS[5], 'duplicates', duplicates)
  end
  for b, e in pairs(expiries) do
    redis.call('ZADD', KEYS[6], 'LT', string.format('%.0f', e), b)
  end
end
return answers
