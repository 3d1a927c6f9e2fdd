/**
 * A few slots of CPU-heavy work (image encoding) shared fairly between projects: at most `slots` jobs at
 * once, at most `perProject` of them for one project, the next slot going round-robin to the projects
 * that wait. A project with `maxWaiting` jobs already queued is refused at once (`busy()`): one tenant's
 * burst cannot hold the machine's cores or grow a queue without end.
 */
export class WorkQueue {
  private active = 0
  private readonly projects = new Map<string, { active: number; waiting: (() => void)[] }>()
  /** Projects in the order their turn comes. */
  private rotation: string[] = []

  constructor(
    private readonly slots: number,
    private readonly perProject: number,
    private readonly maxWaiting: number,
    private readonly busy: () => Error,
  ) {}

  async run<T>(ref: string, work: () => Promise<T>): Promise<T> {
    const project = this.projects.get(ref) ?? { active: 0, waiting: [] }
    this.projects.set(ref, project)
    if (this.active >= this.slots || project.active >= this.perProject) {
      if (project.waiting.length >= this.maxWaiting) {
        this.forgetIfIdle(ref)
        throw this.busy()
      }
      await new Promise<void>((resolve) => {
        project.waiting.push(resolve)
        if (!this.rotation.includes(ref)) this.rotation.push(ref)
      })
    } else {
      this.active++
      project.active++
    }
    try {
      return await work()
    } finally {
      this.active--
      project.active--
      this.next()
      this.forgetIfIdle(ref)
    }
  }

  /** Hands free slots to waiting projects, each in its turn; the slot is counted before the job resumes. */
  private next(): void {
    let tried = 0
    while (this.active < this.slots && tried < this.rotation.length) {
      const ref = this.rotation.shift()!
      const project = this.projects.get(ref)
      if (!project?.waiting.length) {
        tried = 0
        continue
      }
      if (project.active >= this.perProject) {
        this.rotation.push(ref)
        tried++
        continue
      }
      this.active++
      project.active++
      project.waiting.shift()!()
      if (project.waiting.length) this.rotation.push(ref)
      tried = 0
    }
  }

  private forgetIfIdle(ref: string): void {
    const project = this.projects.get(ref)
    if (project && !project.active && !project.waiting.length) this.projects.delete(ref)
  }
}
