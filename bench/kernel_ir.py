"""Small IR-text helpers shared by the kernel-form benchmarks (`cpu_kernel_forms.py`,
`cpu_matmul_forms.py`, `cpu_region_forms.py`)."""


def t(*dims: int, elt: str = "f32") -> str:
    return "tensor<" + "x".join(map(str, dims)) + f"x{elt}>"


def amap(n: int, result: str) -> str:
    return f"affine_map<({', '.join(f'd{i}' for i in range(n))}) -> {result}>"
