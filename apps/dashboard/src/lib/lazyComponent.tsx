import { lazy, Suspense, type ComponentType } from 'react'
import { LoadingState } from '../components/ui/Spinner'

/**
 * A component whose code loads on demand, in its own chunk, the first time it is shown: for heavy
 * features (the results grid, charts) that pages only need once there is something to show. Until
 * the chunk arrives, a loading state stands in its place.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }))
  function OnDemand(props: P) {
    return (
      <Suspense fallback={<LoadingState />}>
        <Loaded {...props} />
      </Suspense>
    )
  }
  return OnDemand
}
