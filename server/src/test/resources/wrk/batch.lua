-- SPDX-License-Identifier: Apache-2.0
-- wrk load for check-and-insert in batches (NDJSON).
--   wrk -t1 -c16 -d30s --latency -s batch.lua http://127.0.0.1:8080 -- [collection] [size] [mode] [words] [pregen]
-- size: documents per request (default 100). mode "fingerprint" (default): random 64-bit
-- fingerprints, for collections with verify=false; mode "text": generated texts of `words` words
-- (default 30, about 200 characters). Ids are unique per run. Documents/s = requests/s * size.
-- pregen (default 0): requests generated in init, before the run, and each sent once (then new
-- ones are generated per request). Generating a body of 100 documents costs wrk about 100 us of CPU,
-- which on the server's own cores is CPU the server does not get; pregenerated, every id is still
-- unique and every fingerprint random. wrk reports non-2xx answers itself ("Non-2xx or 3xx").

local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  collection = args[1] or "default"
  size = tonumber(args[2] or "100")
  mode = args[3] or "fingerprint"
  words = tonumber(args[4] or "30")
  path = "/v1/collections/" .. collection .. "/batch"
  salt = tostring(os.time()) .. "-" .. tostring(tid)
  math.randomseed(os.time() * 1000 + tid)
  vocab = {}
  for i = 1, 20000 do
    local w = {}
    for j = 1, 3 + (i % 7) do
      w[j] = string.char(97 + math.random(0, 25))
    end
    vocab[i] = table.concat(w)
  end
  counter = 0
  headers = {["Content-Type"] = "application/x-ndjson"}
  if os.getenv("NEARDUP_TOKEN") then
    headers["Authorization"] = "Bearer " .. os.getenv("NEARDUP_TOKEN")
  end
  -- Whole requests, formatted here. Formatting one per request (and dropping the body) made about
  -- 5 KB of garbage per request, and wrk's one thread stalled now and then, most likely in LuaJIT's
  -- collector with a gigabyte of bodies to go through: runs where over 1% of requests were slow
  -- only as wrk saw them (p99 16-76 ms, max 240 ms, the server's own p99 under 7 ms), at twice the
  -- wrk CPU per request. Nothing is allocated per request now while the pool lasts.
  pool = {}
  for i = 1, tonumber(args[5] or "0") do
    pool[i] = wrk.format("POST", path, headers, body())
  end
  sent = 0
end

function request()
  sent = sent + 1
  return pool[sent] or wrk.format("POST", path, headers, body())
end

function body()
  local lines = {}
  for i = 1, size do
    counter = counter + 1
    local id = salt .. "-" .. counter
    if mode == "text" then
      local t = {}
      for k = 1, words do
        t[k] = vocab[math.random(#vocab)]
      end
      lines[i] = '{"id":"' .. id .. '","text":"' .. table.concat(t, " ") .. '"}'
    else
      lines[i] = string.format('{"id":"%s","fingerprint":"%08x%08x"}', id,
        math.random(0, 0x7fffffff) * 2 + math.random(0, 1), math.random(0, 0x7fffffff) * 2 + math.random(0, 1))
    end
  end
  return table.concat(lines, "\n") .. "\n"
end
