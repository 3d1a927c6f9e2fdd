import { useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { LoadingState } from '../components/ui/Spinner'

/** A component loaded on demand, which a page may also ask to load ahead of showing it. */
export type OnDemandComponent<P extends object> = ComponentType<P> & {
  /** Loads the chunk now (once): the page can show the component later without waiting for it. */
  preload(): Promise<unknown>
}

/**
 * A component whose code loads on demand, in its own chunk, the first time it is shown: for heavy
 * features (the results grid, charts, the side panels) that pages only need once there is something to
 * show. Until the chunk arrives, a loading state stands in its place (a dialog passes `null`: it shows
 * nothing in the page while it loads). A chunk that fails to load throws to the nearest error boundary,
 * and is asked for again the next time the component is shown.
 *
 * Not React.lazy with Suspense on purpose: React holds back a boundary's content for up to 300 ms after
 * its fallback showed (FALLBACK_THROTTLE_MS, react-dom 19), so a chunk that arrived in 30 ms still took
 * 330 ms to show (the side panels, the API docs drawer: bench/panels; the grid, most of the time from a
 * click on a table to its first rows: bench/table-editor). Here the component replaces its fallback in
 * the render that follows its load.
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
  function OnDemand(props: P) {
    const [state, setState] = useState<{ component?: ComponentType<P>; error?: unknown }>(() => ({ component: loaded }))
    useEffect(() => {
      if (state.component) return
      let mounted = true
      loadOnce().then(
        (component) => mounted && setState({ component }),
        (error: unknown) => mounted && setState({ error }),
      )
      return () => {
        mounted = false
      }
      // Once per instance: the chunk it waits for does not change.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [])
    if (state.error !== undefined) throw state.error
    const Ready = state.component
    return Ready ? <Ready {...props} /> : fallback
  }
  return Object.assign(OnDemand, { preload: loadOnce })
}

/**
 * Loads these components' chunks when the calling page mounts, while the user reads it: each then shows at
 * once when asked for. A failed preload is left to the component, which asks again when shown.
 */
export function usePreload(...components: Array<Pick<OnDemandComponent<object>, 'preload'>>): void {
  useEffect(() => {
    for (const component of components) component.preload().catch(() => {})
    // Once per page: the components are module-level constants.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}
