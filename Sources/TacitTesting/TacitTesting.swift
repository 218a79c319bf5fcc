// TacitTesting
