import { useEffect, type ReactNode } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import { themeInitializationScript } from "@atelier/ui";
import "@atelier/ui/styles.css";
import "./app.css";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/SiteFooter.tsx";
import { SiteHeader } from "./components/SiteHeader.tsx";
import { AnalyticsConsent } from "./components/AnalyticsConsent.tsx";
import { isFullScreenImagePath } from "./lib/site-paths.ts";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#f7f4ef" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Before first paint, so a stored dark theme never flashes light. */}
        <script dangerouslySetInnerHTML={{ __html: themeInitializationScript }} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function SiteFrame({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (isFullScreenImagePath(location.pathname)) return <>{children}</>;
  return (
    <>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main-content" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
      <AnalyticsConsent />
    </>
  );
}

export default function App() {
  // Browser tests wait for this mark before they interact with the page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}

export function HydrateFallback() {
  return (
    <SiteFrame>
      <p className="page-loading">Loading…</p>
    </SiteFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const heading = isRouteErrorResponse(error) && error.status === 404 ? "Page not found" : "Something went wrong";
  return (
    <SiteFrame>
      <section className="page page--narrow">
        <h1>{heading}</h1>
        <p>
          Please try again, or go back to the <a href="/">home page</a>.
        </p>
      </section>
    </SiteFrame>
  );
}
