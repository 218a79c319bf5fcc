-- A right-code check through one face, one verification per request, read from the file
-- named by TACIT_CHECKS ("id code" per line); thread N takes every Nth line. TACIT_FACE and
-- TACIT_AUTH as in create_face.lua.
local index = 0
local threads = 0

function setup(thread)
  thread:set("slot", threads)
  threads = threads + 1
end

function init(args)
  face = os.getenv("TACIT_FACE") or "v1"
  service = os.getenv("TACIT_SERVICE") or ""
  headers = {}
  local auth = os.getenv("TACIT_AUTH")
  if auth and auth ~= "" then headers["Authorization"] = auth end
  checks = {}
  local n = 0
  local stride = tonumber(os.getenv("TACIT_THREADS") or "1")
  for line in io.lines(os.getenv("TACIT_CHECKS")) do
    if n % stride == slot then
      local id, code = line:match("(%S+) (%S+)")
      table.insert(checks, {id = id, code = code})
    end
    n = n + 1
  end
end

request = function()
  index = index + 1
  local item = checks[((index - 1) % #checks) + 1]
  if face == "vonage" then
    headers["Content-Type"] = "application/json"
    return wrk.format("POST", "/v2/verify/" .. item.id, headers, '{"code":"' .. item.code .. '"}')
  elseif face == "twilio" then
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    return wrk.format("POST", "/v2/Services/" .. service .. "/VerificationCheck", headers,
                      "VerificationSid=" .. item.id .. "&Code=" .. item.code)
  end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", "/v1/verifications/" .. item.id .. "/check", headers, '{"code":"' .. item.code .. '"}')
end
