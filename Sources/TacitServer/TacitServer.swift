// TacitServer
