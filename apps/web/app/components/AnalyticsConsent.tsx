import { lazy, Suspense, useEffect, useState } from "react";

const AnalyticsConsentBanner = lazy(() => import("./AnalyticsConsentBanner.tsx"));

/** Analytics code is not even downloaded until the page has hydrated and the server says analytics are configured. */
export function AnalyticsConsent() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <AnalyticsConsentBanner />
    </Suspense>
  );
}
