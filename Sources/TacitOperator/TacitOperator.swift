// TacitOperator
