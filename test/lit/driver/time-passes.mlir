// RUN: fusion-opt %s -p 'cse,dce' --time-passes 2>&1 >/dev/null | filecheck %s
// CHECK:      Execution time report
// CHECK:      Total Execution Time: {{[0-9.]+}} seconds
// CHECK:      ----Wall Time----  ----Name----
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  parser
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  dce
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  output
// CHECK:      {{[0-9.]+}} (100.0%)  Total
func.func @f(%a: f32) -> f32 {
  func.return %a : f32
}
