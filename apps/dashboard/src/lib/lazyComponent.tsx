import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { LoadingState } from '../components/ui/Spinner'

/**
 * A component whose code loads on demand, in its own chunk, the first time it is shown: for heavy
 * features (the results grid, charts) that pages only need once there is something to show. Until
 * the chunk arrives, a loading state stands in its place (a dialog passes `null`: it shows nothing
 * in the page while it loads).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingState />): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }))
  function OnDemand(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    )
  }
  return OnDemand
}
