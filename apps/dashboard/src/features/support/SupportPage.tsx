import { CircleCheck } from 'lucide-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import type { SupportRequest } from '@stratum/contracts'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { PageHeader } from '../../components/ui/PageHeader'
import { humanize } from '../../lib/format'
import { usePageTitle } from '../../lib/usePageTitle'
import { SupportRequestForm } from './SupportRequestForm'
import { SupportRequestList } from './SupportRequestList'
import './support.css'

export function SupportPage() {
  usePageTitle(['New support request'])
  const [params] = useSearchParams()
  const [sent, setSent] = useState<SupportRequest | null>(null)
  // Remounting the form after "Create another request" starts it afresh.
  const [formKey, setFormKey] = useState(0)

  return (
    <div className="page page-narrow">
      <PageHeader
        title="Contact support"
        description="Requests are stored on this Stratum server for its administrators to read. Include what you tried and what you saw."
      />
      <div className="stack">
        {sent ? (
          <Card>
            <div className="support-sent" role="status">
              <CircleCheck size={20} aria-hidden="true" />
              <div className="stack-sm">
                <h2>Your request was sent</h2>
                <p className="muted">
                  “{sent.subject}” ({humanize(sent.category)}) is now in the list below.
                </p>
                <div>
                  <Button
                    onClick={() => {
                      setSent(null)
                      setFormKey((key) => key + 1)
                    }}
                  >
                    Create another request
                  </Button>
                </div>
              </div>
            </div>
          </Card>
        ) : (
          <SupportRequestForm
            key={formKey}
            initial={{
              category: params.get('category'),
              ref: params.get('ref'),
              subject: params.get('subject'),
              message: params.get('message'),
            }}
            onSent={setSent}
          />
        )}
        <SupportRequestList />
      </div>
    </div>
  )
}
