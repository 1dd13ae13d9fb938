"""The e5 encoder's layers as one ONNX Runtime graph, built in memory from the float32 weights numpy runs.

numpy calls BLAS once per matrix product and runs everything between (softmax, GELU, layer norms) as separate
passes over new arrays: for a 41-token question about 12 ms of a forward pass is per-call overhead. ONNX Runtime
runs the same arithmetic as a dozen fused kernels per layer (``Attention`` with the three projections in one
matrix, ``BiasGelu``, ``SkipLayerNormalization``: the contrib operators of its CPU provider) on its own two
threads. Same outputs (|difference| < 1e-5 in the last layer's states), about 1.5-1.9 times faster on 2 cores
(docs/benchmarks.md). The graph is built at load time from the arrays already in memory (0.3 s), so the
fine-tuned layers of the pair classifier run the same way, and nothing is written to disk.

The same graph with 8-bit arithmetic (``int8=True``) runs search queries: every projection but one
(``FLOAT32_PRODUCTS``) is a ``DynamicQuantizeMatMul`` (the activations quantised per call to uint8, the weights per
output column to signed 7-bit integers) and attention a ``MultiHeadAttention`` over the three projections. Weights
are kept to ±63, not ±127: without VNNI, ONNX Runtime multiplies uint8 by int8 with ``VPMADDUBSW``, whose int16
pair sums saturate past 32,767 (255 · 127 · 2 does, 255 · 63 · 2 does not), so machines with and without VNNI
compute the same integer products. An ObliQA question's layers run in about 8.5 ms p50 against 12.2 in float32 on
a quiet 2-core Xeon, and 9.6 against 19.9 with another busy process (session 39); its vector has cosine ≥ 0.99
with the float32 one (0.998 on average), and the rankings of the benchmark sets are unchanged within noise
(docs/benchmarks.md, "Query embedding in 8-bit").
Passages stay float32: the stored vectors do not depend on the runtime.

``onnxruntime`` and ``onnx`` (to write the graph) are ordinary dependencies; when either cannot be imported the
encoder stays on numpy (float32)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

MS = "com.microsoft"
INT8_WEIGHT_MAX = 63
"""Largest quantised weight magnitude of the 8-bit graph (7 bits: see the module's note on saturation)."""
FLOAT32_PRODUCTS = frozenset({"l4.fo"})
"""Products the 8-bit graph keeps in float32: the fifth layer's feed-forward output, whose input (after GELU) has
outliers that one 8-bit range per input cannot hold. Measured product by product on 80 dev questions (ObliQA dev,
ALQAC 2023 train), it alone carries half the 8-bit error of the whole query vector (1 − cosine with float32 0.00397
→ 0.00212; the next best, layer 6's, takes off another 0.0003); on 200 other questions 0.00357 → 0.00197 for
0.15 ms more (session 39)."""


def available() -> bool:
    try:
        importlib.import_module("onnxruntime")
        importlib.import_module("onnx")
    except ImportError:
        return False
    return True


@dataclass
class Graph:
    model: bytes
    """The serialized graph; its weights are declared as external data and given as ``weights``."""
    weights: dict[str, np.ndarray]


def quantize_columns(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``m`` ``[in, out]`` as int8 weights within ±``INT8_WEIGHT_MAX`` and one float32 scale per output column."""
    scale = np.abs(m).max(axis=0) / INT8_WEIGHT_MAX
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(m / scale), -INT8_WEIGHT_MAX, INT8_WEIGHT_MAX).astype(np.int8)
    return q, scale.astype(np.float32)


def build_graph(
    w: Mapping[str, np.ndarray], layers: int, heads: int, hidden: int, eps: float, int8: bool = False
) -> Graph:
    """Input ``x`` (batch, tokens, hidden) after the embedding layer norm and ``mask`` (batch, tokens; int32, 1 for
    a real token), output ``hidden``. ``w`` holds the numpy encoder's arrays, matrices stored ``[in, out]``. The
    weights stay numpy arrays handed to the session (not copied into the serialized graph and out again: 85 MB
    twice). ``int8``: the projections in 8-bit arithmetic (the module's note)."""
    onnx: Any = importlib.import_module("onnx")
    helper, tp = onnx.helper, onnx.TensorProto
    inits: list[Any] = []
    nodes: list[Any] = []
    weights: dict[str, np.ndarray] = {}

    def const(name: str, arr: np.ndarray) -> str:
        arr = weights[name] = np.ascontiguousarray(arr, dtype=np.int8 if arr.dtype == np.int8 else np.float32)
        kind = tp.INT8 if arr.dtype == np.int8 else tp.FLOAT
        t = tp(name=name, dims=arr.shape, data_type=kind, data_location=tp.EXTERNAL)
        for key, value in (("location", "in-memory"), ("offset", "0"), ("length", str(arr.nbytes))):
            t.external_data.add(key=key, value=value)
        inits.append(t)
        return name

    def skip_norm(inp: str, skip: str, norm: str, bias: str, out: str) -> Any:
        """LayerNorm(inp + bias + skip) in one kernel; ``norm``: the layer norm's arrays, ``bias``: ``inp``'s."""
        gamma, beta = const(f"{norm}.w", w[f"{norm}.w"]), const(f"{norm}.b", w[f"{norm}.b"])
        args = [inp, skip, gamma, beta, const(bias, w[bias])]
        return helper.make_node("SkipLayerNormalization", args, [out], domain=MS, epsilon=eps)

    packed: dict[str, np.ndarray] = {}

    def matmul(inp: str, name: str, out: str, bias: bool = False) -> Any:
        """``inp @ w[name.w]`` (``+ w[name.b]`` when ``bias``: 8-bit products only), in float32 or 8-bit."""
        arrays = packed if f"{name}.w" in packed else w
        if not int8 or name in FLOAT32_PRODUCTS:
            if bias:
                raise ValueError(f"{name}: a float32 product is built without its bias")
            return helper.make_node("MatMul", [inp, const(f"{name}.w", arrays[f"{name}.w"])], [out])
        q, scale = quantize_columns(arrays[f"{name}.w"])
        args = [inp, const(f"{name}.q", q), const(f"{name}.s", scale)]
        args += ["", const(f"{name}.b", arrays[f"{name}.b"])] if bias else []  # no zero points: symmetric
        return helper.make_node("DynamicQuantizeMatMul", args, [out], domain=MS)

    x = "x"
    for i in range(layers):
        p = f"l{i}"
        for k in "wb":  # the three projections as one matrix: one product, the input quantised once (int8)
            packed[f"{p}.qkv.{k}"] = np.concatenate([w[f"{p}.{t}.{k}"] for t in "qkv"], axis=-1)
        if int8:
            qkv = [f"{p}.q", f"{p}.k", f"{p}.v"]
            nodes += [
                matmul(x, f"{p}.qkv", f"{p}.qkv", bias=True),
                helper.make_node("Split", [f"{p}.qkv"], qkv, axis=2, num_outputs=3),
                # "": no bias left to add
                helper.make_node("MultiHeadAttention", [*qkv, "", "mask"], [f"{p}.ctx"], domain=MS, num_heads=heads),
            ]
        else:
            args = [x, const(f"{p}.qkv.w", packed[f"{p}.qkv.w"]), const(f"{p}.qkv.b", packed[f"{p}.qkv.b"]), "mask"]
            nodes.append(helper.make_node("Attention", args, [f"{p}.ctx"], domain=MS, num_heads=heads))
        nodes += [
            matmul(f"{p}.ctx", f"{p}.ao", f"{p}.att"),
            skip_norm(f"{p}.att", x, f"{p}.aln", f"{p}.ao.b", f"{p}.mid"),
            matmul(f"{p}.mid", f"{p}.fi", f"{p}.up"),
            helper.make_node("BiasGelu", [f"{p}.up", const(f"{p}.fi.b", w[f"{p}.fi.b"])], [f"{p}.act"], domain=MS),
            matmul(f"{p}.act", f"{p}.fo", f"{p}.down"),
        ]
        out = "hidden" if i == layers - 1 else f"{p}.out"
        nodes.append(skip_norm(f"{p}.down", f"{p}.mid", f"{p}.oln", f"{p}.fo.b", out))
        x = out
    graph = helper.make_graph(
        nodes,
        "e5",
        [
            helper.make_tensor_value_info("x", tp.FLOAT, ["batch", "tokens", hidden]),
            helper.make_tensor_value_info("mask", tp.INT32, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info("hidden", tp.FLOAT, ["batch", "tokens", hidden])],
        inits,
    )
    # IR version 9: what ONNX Runtime 1.17 and later read (onnx writes its newest by default); opset 18: Split's
    # num_outputs
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid(MS, 1)]
    return Graph(bytes(helper.make_model(graph, opset_imports=opsets, ir_version=9).SerializeToString()), weights)


class OnnxLayers:
    """The encoder layers in an ONNX Runtime session: ``hidden(x, mask)`` as ``Encoder`` computes it."""

    def __init__(self, graph: Graph, threads: int | None = None) -> None:
        """``threads``: ONNX Runtime's own pool, by default one per core (as numpy's BLAS)."""
        ort: Any = importlib.import_module("onnxruntime")
        options = ort.SessionOptions()
        names = list(graph.weights)
        # used in place: each OrtValue keeps its numpy array alive, and so must the session's owner keep these
        self.weights = [ort.OrtValue.ortvalue_from_numpy(graph.weights[n]) for n in names]
        options.add_external_initializers(names, self.weights)
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.inter_op_num_threads = 1
        # no busy-waiting between kernels: the cores are shared with BM25, numpy and llama.cpp. Spinning would make
        # a quiet machine's 8-bit query 2 ms faster (6.9 against 9.1 ms p50) and a busy one's slower (p95 24.5
        # against 11.3 ms with one other busy process; session 39)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(graph.model, options, providers=["CPUExecutionProvider"])

    def hidden(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.session.run(["hidden"], {"x": np.ascontiguousarray(x, np.float32), "mask": mask.astype(np.int32)})
        return np.asarray(out[0], dtype=np.float32)
