import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'
import { LoadingState } from '../components/ui/Spinner'

/** A component loaded on demand, which a page may also ask to load ahead of showing it. */
export type OnDemandComponent<P extends object> = ComponentType<P> & {
  /** Loads the chunk now (once): the page can show the component later without waiting for it. */
  preload(): Promise<unknown>
}

/**
 * A component whose code loads on demand, in its own chunk, the first time it is shown: for heavy
 * features (the results grid, charts) that pages only need once there is something to show. Until
 * the chunk arrives, a loading state stands in its place (a dialog passes `null`: it shows nothing
 * in the page while it loads).
 *
 * Once the chunk is there (shown before, or `preload`ed), the component renders at once, without Suspense: React
 * holds back the content of a boundary that showed its fallback for up to 300 ms after that fallback
 * (FALLBACK_THROTTLE_MS), which was most of the time from a click on a table to its first rows (bench/table-editor).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingState />): OnDemandComponent<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const loadOnce = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed load (a deploy replaced the chunk, the network dropped) is tried again next time.
        loading = undefined
        throw error
      },
    ))
  const Lazy = lazy(async () => ({ default: await loadOnce() }))
  function OnDemand(props: P) {
    // Each instance keeps the way it first rendered: switching from the Suspense tree to the direct one would
    // mount the component again and lose its state.
    const [Ready] = useState(() => loaded)
    if (Ready) return <Ready {...props} />
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    )
  }
  return Object.assign(OnDemand, { preload: loadOnce })
}
