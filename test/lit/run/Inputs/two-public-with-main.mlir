func.func @other() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
func.func @main() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
