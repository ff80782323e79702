// REQUIRES: shared
// fusion-stats reads every unfused shared model, in custom and generic form alike.
// RUN: fusion-stats --json %shared/models/mlp_towers/mlp_towers.args.linalg.mlir | filecheck %s --check-prefix=MLP
// RUN: fusion-stats --json %shared/models/mlp_towers/mlp_towers.args.linalg.generic.mlir | filecheck %s --check-prefix=MLP
// RUN: fusion-stats %shared/models/bert_mini/bert_mini.args.linalg.mlir | filecheck %s --check-prefix=BERT
// RUN: fusion-stats %shared/models/gpt2_mini/gpt2_mini.args.linalg.generic.mlir | filecheck %s --check-prefix=GPT2

// mlp_towers: 4 towers x 3 layers, each layer = transpose + matmul + bias add + sigmoid + mul
// (5 kernels; the fills initialise the matmuls) = 60, plus the final concat = 61 kernels.
// flops: 4 x (2*256*256 + 2*256*256 + 2*256*64) matmul + 4 x 576 x (1 + 4 + 1) elementwise.
// MLP:      "total": {
// MLP-NEXT:   "dispatches": 0,
// MLP-NEXT:   "copies": 0,
// MLP-NEXT:   "unfused_compute_ops": 61,
// MLP-NEXT:   "kernels": 61,
// MLP-NEXT:   "flops": 1193472,

// BERT-LABEL: @main_graph
// BERT-NEXT:    kernels {{ *}}169
// GPT2-LABEL: @main_graph
// GPT2-NEXT:    kernels {{ *}}142
