-- SPDX-License-Identifier: Apache-2.0
-- An import's block key entries: appends ARGV[i] to the string KEYS[i], for every i, as the commit
-- does (SET of the whole string: APPEND would leave Redis up to the string's length again of
-- unused room). One call per import chunk, so the strings never travel back to the importer.
for i = 1, #KEYS do
  local s = redis.call('GET', KEYS[i])
  if s then
    redis.call('SET', KEYS[i], s .. ARGV[i])
  else
    redis.call('SET', KEYS[i], ARGV[i])
  end
end
return #KEYS
