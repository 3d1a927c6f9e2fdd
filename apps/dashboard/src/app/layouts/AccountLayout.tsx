import { Outlet } from 'react-router'
import { PageHeader } from '../../components/ui/PageHeader'
import { TabNav } from '../../components/ui/TabNav'
import { useProfile } from '../../data/profile/useProfile'

/** /account/me and /account/tokens share a header and tabs. */
export function AccountLayout() {
  const { data: profile } = useProfile()
  const locked = profile?.password_change_required
  return (
    <div className="page page-narrow">
      <PageHeader title="Account" description={profile?.primary_email}>
        {/* Until the one-time password is replaced only this page works: no tabs to elsewhere. */}
        {locked ? null : (
          <TabNav
            label="Account"
            tabs={[
              { label: 'Preferences', to: '/account/me' },
              { label: 'Access tokens', to: '/account/tokens' },
            ]}
          />
        )}
      </PageHeader>
      <Outlet />
    </div>
  )
}
