// TacitCore
