-- POST /v1/verifications with an sms-only workflow to a distinct, valid UK mobile per request.
-- The numbers are spread so that no 100-block holds more than one and no 10,000-block more
-- than 25: the velocity guard (sequential pumping) must not refuse the benchmark's starts.
-- Each wrk thread has its own 741/742… range; TACIT_NUMBER_BASE offsets the counter
-- (runs against one server must not reuse pending numbers); TACIT_DELAY_MS paces each connection.
local counter = 0
next_prefix = 1
prefix = 0

function setup(thread)
  thread:set("prefix", next_prefix)
  next_prefix = next_prefix + 1
end

function init(args)
  base = tonumber(os.getenv("TACIT_NUMBER_BASE") or "0")
end

request = function()
  local n = base + counter
  counter = counter + 1
  local block = n % 1000
  local member = math.floor(n / 1000) % 25
  local number = string.format("+4474%d%03d%02d%02d", prefix, block, member, n % 100)
  local body = '{"phone_number":"' .. number .. '","workflow":[{"channel":"sms"}],"channel_timeout":900}'
  return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"}, body)
end

function delay()
  return tonumber(os.getenv("TACIT_DELAY_MS") or "0")
end
