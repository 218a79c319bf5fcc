// TacitStore
