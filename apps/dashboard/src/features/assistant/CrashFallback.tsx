import { ASSISTANT_CRASH_DESCRIPTION, ASSISTANT_CRASH_RESET, ASSISTANT_CRASH_RETRY, ASSISTANT_CRASH_TITLE } from '@stratum/contracts'
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Button } from '../../components/ui/Button'

interface BoundaryProps {
  onClearMessages: () => Promise<void>
  children: ReactNode
}

/** The spec's crash fallback for the assistant panel: its two texts, Try again, and Clear messages and refresh. */
export class AssistantCrashBoundary extends Component<BoundaryProps, { failed: boolean; attempt: number }> {
  override state = { failed: false, attempt: 0 }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // No error service on a self-hosted installation: the browser console is where it is reported.
    console.error('The AI assistant panel crashed', error, info.componentStack)
  }

  private retry = () => this.setState((state) => ({ failed: false, attempt: state.attempt + 1 }))

  override render() {
    if (!this.state.failed) return <div key={this.state.attempt} className="assistant-body">{this.props.children}</div>
    return (
      <div className="assistant-crash" role="alert">
        <h3>{ASSISTANT_CRASH_TITLE}</h3>
        <p className="muted">{ASSISTANT_CRASH_DESCRIPTION}</p>
        <div className="row">
          <Button onClick={this.retry}>{ASSISTANT_CRASH_RETRY}</Button>
          <Button
            variant="primary"
            onClick={() => {
              void this.props.onClearMessages().finally(this.retry)
            }}
          >
            {ASSISTANT_CRASH_RESET}
          </Button>
        </div>
      </div>
    )
  }
}
