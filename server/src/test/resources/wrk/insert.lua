-- SPDX-License-Identifier: Apache-2.0
-- wrk load for check-and-insert, one document per request.
--   wrk -t2 -c64 -d30s --latency -s insert.lua http://127.0.0.1:8080 -- [collection] [words] [mode]
-- mode "text" (default): a generated text of `words` words (about 6.5 characters each, so 30 words
-- is about 200 characters), one in four a copy of an earlier text (a duplicate).
-- mode "fingerprint": a random 64-bit fingerprint (for collections with verify=false).
-- Ids are unique per run: thread number, a per-run salt and a counter.

local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  collection = args[1] or "default"
  words = tonumber(args[2] or "30")
  mode = args[3] or "text"
  path = "/v1/collections/" .. collection .. "/documents"
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
  recent = {}
  headers = {["Content-Type"] = "application/json"}
  if os.getenv("NEARDUP_TOKEN") then
    headers["Authorization"] = "Bearer " .. os.getenv("NEARDUP_TOKEN")
  end
end

local made = 0

local function text()
  if made > 0 and math.random(4) == 1 then
    return recent[math.random(math.min(made, 1000))]
  end
  local t = {}
  for i = 1, words do
    t[i] = vocab[math.random(#vocab)]
  end
  local s = table.concat(t, " ")
  recent[(made % 1000) + 1] = s
  made = made + 1
  return s
end

function request()
  counter = counter + 1
  local id = salt .. "-" .. counter
  local body
  if mode == "fingerprint" then
    body = string.format('{"id":"%s","fingerprint":"%08x%08x"}', id,
      math.random(0, 0x7fffffff) * 2 + math.random(0, 1), math.random(0, 0x7fffffff) * 2 + math.random(0, 1))
  else
    body = '{"id":"' .. id .. '","text":"' .. text() .. '"}'
  end
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  if status ~= 200 then
    print("status " .. status .. ": " .. body)
  end
end
