-- SPDX-License-Identifier: Apache-2.0
-- wrk load of real texts for check-and-insert, one per request or SIZE per batch (NDJSON).
--   wrk -t1 -c16 -d30s --latency -s texts.lua http://127.0.0.1:8080 -- COLLECTION FILE [SIZE]
-- FILE holds one JSON string literal per line: the texts, already escaped (service-texts.sh
-- writes it from a JSONL file's "text" fields). SIZE 0 or absent: one document per request to
-- /documents; else SIZE per request to /batch. The texts are sent in the file's order, from an
-- offset of its own for each wrk thread, round and round: past the file's end a text comes back
-- under a new id, so it is then an exact copy of a stored document (the run's duplicate share is
-- in the server's documents counters). Ids are unique per run: a per-thread salt and a counter.
-- A body is made per request from the texts held in memory: at news length a batch of 100 is
-- ~300 KB, and a pool of them would not fit; concatenating one costs wrk ~0.1 ms, against the
-- server's tens of milliseconds of analysis for it.

local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  local collection = args[1] or "default"
  size = tonumber(args[3] or "0")
  texts = {}
  for line in io.lines(args[2]) do
    texts[#texts + 1] = line
  end
  if #texts == 0 then
    error("no texts in " .. tostring(args[2]))
  end
  next_text = ((tid - 1) * 7919) % #texts
  salt = tostring(os.time()) .. "-" .. tostring(tid)
  counter = 0
  if size > 0 then
    path = "/v1/collections/" .. collection .. "/batch"
    headers = {["Content-Type"] = "application/x-ndjson"}
  else
    path = "/v1/collections/" .. collection .. "/documents"
    headers = {["Content-Type"] = "application/json"}
  end
  if os.getenv("NEARDUP_TOKEN") then
    headers["Authorization"] = "Bearer " .. os.getenv("NEARDUP_TOKEN")
  end
end

local function document()
  counter = counter + 1
  next_text = next_text % #texts + 1
  return '{"id":"' .. salt .. "-" .. counter .. '","text":' .. texts[next_text] .. "}"
end

function request()
  if size == 0 then
    return wrk.format("POST", path, headers, document())
  end
  local lines = {}
  for i = 1, size do
    lines[i] = document()
  end
  return wrk.format("POST", path, headers, table.concat(lines, "\n") .. "\n")
end

function response(status, headers, body)
  if status ~= 200 and status ~= 409 then
    print("status " .. status .. ": " .. body:sub(1, 200))
  end
end
