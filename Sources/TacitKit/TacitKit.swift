// TacitKit
