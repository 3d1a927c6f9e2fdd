import { CircleAlert, CircleCheck, Info, X } from 'lucide-react'
import { createContext, use, useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import './toast.css'

export type ToastTone = 'success' | 'error' | 'info'

interface ToastItem {
  id: number
  tone: ToastTone
  /** Text, or text with a link in it (e.g. 'Saved snippet! View it here.'). */
  title: ReactNode
  description?: string
  /** Milliseconds on screen; by default per tone (DURATION). */
  duration?: number
}

interface ToastApi {
  show: (toast: Omit<ToastItem, 'id'>) => void
  success: (title: string, description?: string) => void
  error: (title: string, description?: string) => void
  info: (title: string, description?: string) => void
}

const ToastContext = createContext<ToastApi | null>(null)

/** Errors stay longer: they usually carry the server's message, worth reading. */
const DURATION: Record<ToastTone, number> = { success: 4000, info: 5000, error: 8000 }
const ICONS: Record<ToastTone, ReactNode> = {
  success: <CircleCheck size={16} aria-hidden="true" />,
  error: <CircleAlert size={16} aria-hidden="true" />,
  info: <Info size={16} aria-hidden="true" />,
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([])
  const nextId = useRef(1)

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), [])

  const show = useCallback(
    (toast: Omit<ToastItem, 'id'>) => {
      const id = nextId.current++
      setToasts((all) => [...all.slice(-3), { ...toast, id }])
      window.setTimeout(() => dismiss(id), toast.duration ?? DURATION[toast.tone])
    },
    [dismiss],
  )

  const api = useMemo<ToastApi>(
    () => ({
      show,
      success: (title, description) => show({ tone: 'success', title, description }),
      error: (title, description) => show({ tone: 'error', title, description }),
      info: (title, description) => show({ tone: 'info', title, description }),
    }),
    [show],
  )

  return (
    <ToastContext value={api}>
      {children}
      <section className="toasts" aria-label="Notifications">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
            <span className={`toast-icon toast-icon-${toast.tone}`}>{ICONS[toast.tone]}</span>
            <div className="toast-text">
              <div className="toast-title">{toast.title}</div>
              {toast.description ? <div className="toast-description">{toast.description}</div> : null}
            </div>
            <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(toast.id)}>
              <X size={14} aria-hidden="true" />
            </button>
          </div>
        ))}
      </section>
    </ToastContext>
  )
}

export function useToast(): ToastApi {
  const api = use(ToastContext)
  if (!api) throw new Error('useToast must be used inside ToastProvider')
  return api
}
