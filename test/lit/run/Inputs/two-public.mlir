func.func @first() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
func.func @second() -> i32 {
  %c = arith.constant 2 : i32
  return %c : i32
}
