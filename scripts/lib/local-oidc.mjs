// The local OpenID provider for npm start and the tests (issue: sign-in). Until it exists the
// site runs without one and sign-in is unavailable.
/** @returns {Promise<{ issuer: string, stop: () => Promise<void> } | null>} */
export async function startLocalProviderIfNeeded() {
  return null;
}
