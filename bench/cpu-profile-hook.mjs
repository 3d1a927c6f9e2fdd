// Preloaded into the bench's platform process (NODE_OPTIONS=--import, which takes no --cpu-prof): a V8 CPU profile
// of `stratum start`, from its start until SIGTERM (the bench's stop), written to $BENCH_CPU_PROF_DIR/<pid>.cpuprofile.
// Other node processes that inherit NODE_OPTIONS (the token CLI) are left alone.
import fs from 'node:fs'
import path from 'node:path'
import inspector from 'node:inspector'

const dir = process.env.BENCH_CPU_PROF_DIR
if (dir && process.argv.includes('start')) {
  const session = new inspector.Session()
  session.connect()
  session.post('Profiler.enable')
  session.post('Profiler.setSamplingInterval', { interval: 1000 })
  session.post('Profiler.start')
  let written = false
  const write = () => {
    if (written) return
    written = true
    // Same-thread session: the answer comes before post returns.
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile))
    })
  }
  process.prependListener('SIGTERM', write)
  process.on('exit', write)
}
