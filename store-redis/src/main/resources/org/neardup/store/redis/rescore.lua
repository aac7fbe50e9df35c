-- SPDX-License-Identifier: Apache-2.0
-- After a sweep of a record bucket: scores the bucket in x by the earliest expiry still in it, or
-- takes it out of x when nothing in it expires.
-- KEYS: 1 x, 2 the record bucket (d hash).  ARGV: 1 the bucket's number.
-- A record's expiry is its bytes 17-24 (big-endian milliseconds; 2^63 - 1 for never).
local best = nil
local all = redis.call('HVALS', KEYS[2])
for _, rec in ipairs(all) do
  local hi = string.byte(rec, 17)
  if hi < 64 then
    local e = 0
    for j = 17, 24 do
      e = e * 256 + string.byte(rec, j)
    end
    if best == nil or e < best then
      best = e
    end
  end
end
if best == nil then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], string.format('%.0f', best), ARGV[1])
end
return 1
