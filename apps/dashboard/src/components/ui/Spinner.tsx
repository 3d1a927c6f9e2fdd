import { LoaderCircle } from 'lucide-react'
import './spinner.css'

export function Spinner({ size = 16 }: { size?: number }) {
  return <LoaderCircle className="spinner" size={size} aria-hidden="true" />
}

/** A centred spinner with a text for assistive technology (and for people, after a moment). */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-state" role="status">
      <Spinner size={18} />
      <span>{label}</span>
    </div>
  )
}
