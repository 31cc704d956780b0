/**
 * The peak growth of the process's array-buffer memory from now until `stop()` (`peak`), sampled after a
 * forced collection: what the file tests assert to show that a body larger than the
 * HttpClient's buffer cap is streamed, never held whole. Sampled every 200 ms: a full
 * collection every few tens of milliseconds starves the transfer on a loaded 2-core machine,
 * and a body held whole grows for the whole transfer, so the samples still catch it.
 */
import * as v8 from "node:v8"
import * as vm from "node:vm"

export const sampleMemory = (): { readonly stop: () => void; readonly peak: () => number } => {
  v8.setFlagsFromString("--expose-gc")
  const gc = vm.runInNewContext("gc") as () => void
  gc()
  const base = process.memoryUsage().arrayBuffers
  let peak = 0
  const sample = () => {
    gc()
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - base)
  }
  const timer = setInterval(sample, 200)
  return { stop: () => clearInterval(timer), peak: () => peak }
}
