-- A start through one face, with a distinct +990 number per request and an sms-only
-- workflow. TACIT_FACE picks the wire shape: v1 (POST /v1/verifications, JSON), vonage
-- (POST /v2/verify, JSON) or twilio (POST /v2/Services/{TACIT_SERVICE}/Verifications,
-- form-encoded). TACIT_AUTH is the Authorization header, if any. TACIT_NUMBER_BASE
-- offsets the numbers so runs against one server never reuse pending ones.
local counter = 0
next_prefix = 1
prefix = 0

function setup(thread)
  thread:set("prefix", next_prefix)
  next_prefix = next_prefix + 1
end

function init(args)
  base = tonumber(os.getenv("TACIT_NUMBER_BASE") or "0")
  face = os.getenv("TACIT_FACE") or "v1"
  service = os.getenv("TACIT_SERVICE") or ""
  headers = {}
  local auth = os.getenv("TACIT_AUTH")
  if auth and auth ~= "" then headers["Authorization"] = auth end
end

request = function()
  counter = counter + 1
  local digits = string.format("990%01d%08d", prefix, base + counter)
  if face == "vonage" then
    headers["Content-Type"] = "application/json"
    local body = '{"brand":"Bench","channel_timeout":900,"workflow":[{"channel":"sms","to":"' .. digits .. '"}]}'
    return wrk.format("POST", "/v2/verify", headers, body)
  elseif face == "twilio" then
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    return wrk.format("POST", "/v2/Services/" .. service .. "/Verifications", headers, "To=%2B" .. digits .. "&Channel=sms")
  end
  headers["Content-Type"] = "application/json"
  local body = '{"phone_number":"+' .. digits .. '","workflow":[{"channel":"sms"}],"channel_timeout":900}'
  return wrk.format("POST", "/v1/verifications", headers, body)
end
