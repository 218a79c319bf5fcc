-- POST /v1/verifications with an sms-only workflow and a distinct +990 number per request.
-- TACIT_NUMBER_BASE offsets the numbers (runs against one server must not reuse pending ones),
-- TACIT_TIMEOUT sets channel_timeout, TACIT_DELAY_MS paces each connection.
local counter = 0
next_prefix = 1
prefix = 0

function setup(thread)
  thread:set("prefix", next_prefix)
  next_prefix = next_prefix + 1
end

function init(args)
  base = tonumber(os.getenv("TACIT_NUMBER_BASE") or "0")
  timeout = os.getenv("TACIT_TIMEOUT")
end

request = function()
  counter = counter + 1
  local number = string.format("+990%01d%08d", prefix, base + counter)
  local body = '{"phone_number":"' .. number .. '","workflow":[{"channel":"sms"}]' ..
    (timeout and (',"channel_timeout":' .. timeout) or '') .. '}'
  return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"}, body)
end

function delay()
  return tonumber(os.getenv("TACIT_DELAY_MS") or "0")
end
