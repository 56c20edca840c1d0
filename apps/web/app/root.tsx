import { lazy, Suspense, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useNavigation } from "react-router";
import { themeInitializationScript } from "@atelier/ui";
import "@atelier/ui/styles.css";
import "./app.css";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/SiteFooter.tsx";
import { SiteHeader } from "./components/SiteHeader.tsx";
import { AnalyticsConsent } from "./components/AnalyticsConsent.tsx";
import { isFullScreenImagePath } from "./lib/site-paths.ts";
import { AuthChangeRedirector, AuthProvider } from "@atelier/auth/react";
import { redirectForAuthChange } from "@atelier/auth";
import { authClient, authStore, hasSignedInHint } from "./lib/auth.ts";
import { useSignOutDialogStore } from "./components/sign-out-dialog-store.ts";
import { useLoginModalStore } from "./login-modal/login-modal-store.ts";
import { takeReturnAfterLogin } from "./login-modal/return-after-login.ts";
import { atelierAuthRoutes } from "./lib/auth-routes.ts";
import { preferStrongestSecondFactor } from "./mfa/second-factor-flows.ts";
import { SiteShellContext, SiteShellDecisionContext, staticPageScriptOfMatches, useMatchedSiteShell, type SiteShellDecision } from "./site-shell/use-site-shell.ts";
import siteShellScriptUrl from "@atelier/site-shell/page-script?url&no-inline";
import imageViewerPageScriptUrl from "@atelier/image-viewer/page-script?url&no-inline";
import contactPageScriptUrl from "@atelier/contact-form/page-script?url&no-inline";
import altchaWidgetScriptUrl from "@atelier/contact-form/altcha-widget-script?url&no-inline";

/** A sign-in made in the login modal reloads the page itself (spec 4.2); every other change follows spec 2.1. */
// The two dialogs (and Radix's dialog with them) are loaded the first time they open: most visitors never open them,
// and they would otherwise weigh on every public page's first load.
const LoginModal = lazy(() => import("./login-modal/LoginModal.tsx").then((module) => ({ default: module.LoginModal })));
const SignOutDialog = lazy(() => import("./components/SignOutDialog.tsx").then((module) => ({ default: module.SignOutDialog })));

/** Renders `children` from the first time `isOpen` is true on, so a closing dialog can still animate out. */
function OnceOpened({ isOpen, children }: { isOpen: boolean; children: ReactNode }) {
  const [hasOpened, setHasOpened] = useState(isOpen);
  useEffect(() => {
    if (isOpen) setHasOpened(true);
  }, [isOpen]);
  return hasOpened || isOpen ? <Suspense fallback={null}>{children}</Suspense> : null;
}

function DeferredDialogs() {
  const isLoginModalOpen = useLoginModalStore((state) => state.state === "open");
  const isSignOutDialogOpen = useSignOutDialogStore((state) => state.state === "open");
  return (
    <>
      <OnceOpened isOpen={isLoginModalOpen}>
        <LoginModal />
      </OnceOpened>
      <OnceOpened isOpen={isSignOutDialogOpen}>
        <SignOutDialog />
      </OnceOpened>
    </>
  );
}

const resolveRedirectOutsideTheLoginModal: typeof redirectForAuthChange = (event, context) => {
  if (event === "login") {
    // The modal reloads the page itself (spec 4.2). The server merged the study progress as it signed the user in.
    if (useLoginModalStore.getState().state === "open") return null;
    // Begun in the modal and finished on a flow's page: back to where the modal was opened.
    const returnPath = context.nextParameter ? undefined : takeReturnAfterLogin();
    if (returnPath) return returnPath;
  }
  const target = redirectForAuthChange(event, { ...context, routes: atelierAuthRoutes });
  return target === null ? null : preferStrongestSecondFactor(target, context.response);
};

/**
 * After the page: React's scripts, or on a prerendered static page only its own plain scripts (issue 16): the site
 * shell on content pages, the viewer's bundle on the viewer's pages (decision 0037), and on /contact the form's script
 * and then the site shell (decision 0038). Module scripts run in document order, so the form is wired before the
 * shell marks the page `data-hydrated`; the form's script imports the ALTCHA widget from the address its tag names.
 */
function DocumentScripts({ decision }: { decision: SiteShellDecision }) {
  const staticPageScript = staticPageScriptOfMatches(useMatches());
  if (decision.shell === "app") {
    return (
      <>
        <ScrollRestoration />
        <Scripts />
      </>
    );
  }
  switch (staticPageScript) {
    case "image-viewer":
      return <script type="module" src={imageViewerPageScriptUrl} data-image-viewer-page="" />;
    case "contact":
      return (
        <>
          <script type="module" src={contactPageScriptUrl} data-contact-page="" data-altcha-widget-src={altchaWidgetScriptUrl} />
          <script type="module" src={siteShellScriptUrl} data-site-shell="" fetchPriority="low" />
        </>
      );
    case "site-shell":
      // Low: the page's first painting is fetched before the header's script, which has nothing to paint (decision 0046).
      return <script type="module" src={siteShellScriptUrl} data-site-shell="" fetchPriority="low" />;
    default:
      return staticPageScript satisfies never;
  }
}

export function Layout({ children }: { children: ReactNode }) {
  const decision = useRef<SiteShellDecision>({ shell: "app" }).current;
  return (
    <SiteShellDecisionContext.Provider value={decision}>
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
        <DocumentScripts decision={decision} />
      </body>
    </html>
    </SiteShellDecisionContext.Provider>
  );
}

/** Screens wait for their route's loader before they change (decision 0035): a thin bar says a page is on its way. */
function NavigationProgress() {
  const navigation = useNavigation();
  return navigation.state === "loading" ? <div className="navigation-progress" aria-hidden="true" /> : null;
}

function SiteFrame({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  if (isFullScreenImagePath(location.pathname)) return <>{children}</>;
  return (
    <>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <NavigationProgress />
      <SiteHeader />
      <main id="main-content" className="site-main" tabIndex={-1} aria-busy={navigation.state === "loading" ? true : undefined}>
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
  const shell = useMatchedSiteShell();
  // Rendered before the Layout's scripts in the same server render: they follow this page's decision.
  const decision = useContext(SiteShellDecisionContext);
  if (shell === "static") decision.shell = "static";
  return (
    <SiteShellContext.Provider value={shell}>
    {/* gate="none": prerendered public pages show their content at once; only account screens wait for the status. */}
    {/* Not again when the HydrateFallback's provider or a route's loader already brought the status in. */}
    <AuthProvider client={authClient} store={authStore} gate="none" loadOnMount={hasSignedInHint() && authStore.getState().loadState !== "ready"}>
      <AuthChangeRedirector routes={atelierAuthRoutes} resolveRedirect={resolveRedirectOutsideTheLoginModal} />
      <SiteFrame>
        <Outlet />
      </SiteFrame>
      <DeferredDialogs />
    </AuthProvider>
    </SiteShellContext.Provider>
  );
}

function WithAuthentication({ children }: { children: ReactNode }) {
  return (
    <AuthProvider client={authClient} store={authStore} gate="none" loadOnMount={hasSignedInHint()}>
      {children}
    </AuthProvider>
  );
}

export function HydrateFallback() {
  return (
    <WithAuthentication>
      <SiteFrame>
        <p className="page-loading">Loading…</p>
      </SiteFrame>
    </WithAuthentication>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const heading = isRouteErrorResponse(error) && error.status === 404 ? "Page not found" : "Something went wrong";
  return (
    <WithAuthentication>
    <SiteFrame>
      <section className="page page--narrow">
        <h1>{heading}</h1>
        <p>
          Please try again, or go back to the <a href="/">home page</a>.
        </p>
      </section>
    </SiteFrame>
    </WithAuthentication>
  );
}
