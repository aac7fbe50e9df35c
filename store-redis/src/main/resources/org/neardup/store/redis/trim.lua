-- SPDX-License-Identifier: Apache-2.0
-- The end of an import: rewrites each string KEYS[i] whole (GET then SET), so it takes no more
-- memory than the commit's whole-string SET leaves. The import APPENDs each chunk's block entries
-- (the cheapest write for Redis, and nothing travels back), but APPEND leaves a string room to grow
-- up to twice its length; a SET from a script allocates the value's length only.
for i = 1, #KEYS do
  local s = redis.call('GET', KEYS[i])
  if s then
    redis.call('SET', KEYS[i], s)
  end
end
return #KEYS
