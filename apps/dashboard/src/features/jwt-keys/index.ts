// The pages of this feature, for the router (loaded on demand through app/areas/project-settings.ts).
export { JwtKeysPage } from './JwtKeysPage'
