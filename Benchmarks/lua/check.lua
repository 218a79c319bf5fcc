-- POST /v1/verifications/{id}/check with the right code, one verification per request,
-- read from the file named by TACIT_CHECKS ("id code" per line). Thread N takes every Nth line.
local index = 0
local threads = 0

function setup(thread)
  thread:set("slot", threads)
  threads = threads + 1
end

function init(args)
  checks = {}
  local n = 0
  local stride = tonumber(os.getenv("TACIT_THREADS") or "1")
  for line in io.lines(os.getenv("TACIT_CHECKS")) do
    if n % stride == slot then
      local id, code = line:match("(%S+) (%S+)")
      table.insert(checks, {id = id, body = '{"code":"' .. code .. '"}'})
    end
    n = n + 1
  end
end

request = function()
  index = index + 1
  local item = checks[((index - 1) % #checks) + 1]
  return wrk.format("POST", "/v1/verifications/" .. item.id .. "/check", {["Content-Type"] = "application/json"}, item.body)
end
