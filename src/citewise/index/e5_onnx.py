"""The e5 encoder's layers as one ONNX Runtime graph, built in memory from the float32 weights numpy runs.

numpy calls BLAS once per matrix product and runs everything between (softmax, GELU, layer norms) as separate
passes over new arrays: for a 41-token question about 12 ms of a forward pass is per-call overhead. ONNX Runtime
runs the same arithmetic as a dozen fused kernels per layer (``Attention`` with the three projections in one
matrix, ``BiasGelu``, ``SkipLayerNormalization``: the contrib operators of its CPU provider) on its own two
threads. Same outputs (|difference| < 1e-5 in the last layer's states), about 1.5-1.9 times faster on 2 cores
(docs/benchmarks.md). The graph is built at load time from the arrays already in memory (0.3 s), so the
fine-tuned layers of the pair classifier run the same way, and nothing is written to disk.

``onnxruntime`` and ``onnx`` (to write the graph) are ordinary dependencies; when either cannot be imported the
encoder stays on numpy."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

MS = "com.microsoft"


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


def build_graph(w: Mapping[str, np.ndarray], layers: int, heads: int, hidden: int, eps: float) -> Graph:
    """Input ``x`` (batch, tokens, hidden) after the embedding layer norm and ``mask`` (batch, tokens; int32, 1 for
    a real token), output ``hidden``. ``w`` holds the numpy encoder's arrays, matrices stored ``[in, out]``. The
    weights stay numpy arrays handed to the session (not copied into the serialized graph and out again: 85 MB
    twice)."""
    onnx: Any = importlib.import_module("onnx")
    helper, tp = onnx.helper, onnx.TensorProto
    inits: list[Any] = []
    nodes: list[Any] = []
    weights: dict[str, np.ndarray] = {}

    def const(name: str, arr: np.ndarray) -> str:
        arr = weights[name] = np.ascontiguousarray(arr, dtype=np.float32)
        t = tp(name=name, dims=arr.shape, data_type=tp.FLOAT, data_location=tp.EXTERNAL)
        for key, value in (("location", "in-memory"), ("offset", "0"), ("length", str(arr.nbytes))):
            t.external_data.add(key=key, value=value)
        inits.append(t)
        return name

    def skip_norm(inp: str, skip: str, norm: str, bias: str, out: str) -> Any:
        """LayerNorm(inp + bias + skip) in one kernel; ``norm``: the layer norm's arrays, ``bias``: ``inp``'s."""
        gamma, beta = const(f"{norm}.w", w[f"{norm}.w"]), const(f"{norm}.b", w[f"{norm}.b"])
        args = [inp, skip, gamma, beta, const(bias, w[bias])]
        return helper.make_node("SkipLayerNormalization", args, [out], domain=MS, epsilon=eps)

    x = "x"
    for i in range(layers):
        p = f"l{i}"
        qkv_w = const(f"{p}.qkv.w", np.concatenate([w[f"{p}.q.w"], w[f"{p}.k.w"], w[f"{p}.v.w"]], axis=1))
        qkv_b = const(f"{p}.qkv.b", np.concatenate([w[f"{p}.q.b"], w[f"{p}.k.b"], w[f"{p}.v.b"]]))
        nodes += [
            helper.make_node("Attention", [x, qkv_w, qkv_b, "mask"], [f"{p}.ctx"], domain=MS, num_heads=heads),
            helper.make_node("MatMul", [f"{p}.ctx", const(f"{p}.ao.w", w[f"{p}.ao.w"])], [f"{p}.att"]),
            skip_norm(f"{p}.att", x, f"{p}.aln", f"{p}.ao.b", f"{p}.mid"),
            helper.make_node("MatMul", [f"{p}.mid", const(f"{p}.fi.w", w[f"{p}.fi.w"])], [f"{p}.up"]),
            helper.make_node("BiasGelu", [f"{p}.up", const(f"{p}.fi.b", w[f"{p}.fi.b"])], [f"{p}.act"], domain=MS),
            helper.make_node("MatMul", [f"{p}.act", const(f"{p}.fo.w", w[f"{p}.fo.w"])], [f"{p}.down"]),
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
    # IR version 9: what ONNX Runtime 1.17 and later read (onnx writes its newest by default)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
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
        # no busy-waiting between calls: the cores are shared with BM25, numpy and llama.cpp
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(graph.model, options, providers=["CPUExecutionProvider"])

    def hidden(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.session.run(["hidden"], {"x": np.ascontiguousarray(x, np.float32), "mask": mask.astype(np.int32)})
        return np.asarray(out[0], dtype=np.float32)
