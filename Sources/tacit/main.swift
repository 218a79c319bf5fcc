print("tacit")
