/**
 * A collector's rhythm: a pass over every project every `interval()` ms from start() until stop(), and on
 * demand through collect(). A pass already under way is joined, never doubled; stop() waits for it.
 */
export abstract class PeriodicPass {
  private timer: NodeJS.Timeout | null = null
  protected running: Promise<void> | null = null

  protected abstract interval(): number
  protected abstract pass(): Promise<void>

  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.collect().catch(() => {}), this.interval())
    this.timer.unref()
    void this.collect().catch(() => {})
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running?.catch(() => {})
  }

  /** One pass over every project now (joining the one under way). */
  collect(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null
    })
    return this.running
  }
}
