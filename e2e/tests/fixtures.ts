import { test as base, expect, type APIRequestContext, type APIRequest } from '@playwright/test'
import { OWNER } from './helpers'

export { expect }

/**
 * Every spec's projects are deleted when the worker moves on to the next spec (or ends): a run once finished with
 * about 45 Postgres servers up, one per project any test had made. What a spec made is what the owner can see that
 * was not there when its first test began; projects of other people's own organizations are out of reach and stay.
 * Deleting happens before the next spec's first test, in a fixture with its own time limit, never in a test's.
 */
class SpecProjects {
  private spec: string | null = null
  private before = new Set<string>()

  constructor(private readonly api: APIRequestContext) {}

  static async signedIn(request: APIRequest): Promise<SpecProjects> {
    const origin = `http://127.0.0.1:${process.env.E2E_PORT}`
    const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } })
    const response = await api.post('/api/auth/login', { data: OWNER })
    expect(response.status(), await response.text()).toBe(200)
    return new SpecProjects(api)
  }

  /** Called before each test: a test of another spec first deletes what the previous spec made. */
  async enter(spec: string): Promise<void> {
    if (spec === this.spec) return
    await this.deleteMadeSinceEntered()
    this.spec = spec
    this.before = new Set(await this.refs())
  }

  async deleteMadeSinceEntered(): Promise<void> {
    if (this.spec === null) return
    const made = (await this.refs()).filter((ref) => !this.before.has(ref))
    for (const ref of made) await this.delete(ref)
  }

  async dispose(): Promise<void> {
    await this.api.dispose()
  }

  private async refs(): Promise<string[]> {
    const response = await this.api.get('/platform/projects')
    expect(response.status(), await response.text()).toBe(200)
    return ((await response.json()) as { ref: string }[]).map((project) => project.ref)
  }

  /**
   * A project in the middle of an operation (a restore, an upgrade) refuses deletion with 409 until it ends; a branch
   * deleted with its parent answers 404. Both end well; anything else fails the fixture, so a leak is seen.
   */
  private async delete(ref: string): Promise<void> {
    await expect
      .poll(async () => (await this.api.delete(`/platform/projects/${ref}`)).status(), { timeout: 120_000, intervals: [250, 500, 1_000] })
      .not.toBe(409)
    const left = await this.api.get(`/platform/projects/${ref}`)
    expect(left.status(), `project ${ref} was not deleted: ${await left.text()}`).toBe(404)
  }
}

export const test = base.extend<{ specProjectsEntered: void }, { specProjects: SpecProjects }>({
  specProjects: [
    async ({ playwright }, use) => {
      const projects = await SpecProjects.signedIn(playwright.request)
      await use(projects)
      await projects.deleteMadeSinceEntered()
      await projects.dispose()
    },
    { scope: 'worker', auto: true, timeout: 300_000 },
  ],
  specProjectsEntered: [
    async ({ specProjects }, use, testInfo) => {
      await specProjects.enter(testInfo.file)
      await use()
    },
    { auto: true, timeout: 300_000 },
  ],
})
