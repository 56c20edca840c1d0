import { flowPaths, type AuthRoutes } from "@atelier/auth";

/** The login page (spec §2.1). */
export const LOGIN_PATH = "/account/login";
/** Where a user lands after logging in (spec §2.1). */
export const LOGIN_REDIRECT_PATH = "/dashboard";
/** Where a user lands after logging out (spec §2.1). */
export const LOGOUT_REDIRECT_PATH = "/";
/** Where a user who logs out on a study configuration or session page goes (spec §2.1). */
export const STUDY_LOGOUT_REDIRECT_PATH = "/upload-subtitles";

const studyConfigurationOrSessionPath = /^\/study\/[^/]+\/(?:config|session)\/?$/;

/** Where a logout sends a user, by the page they were on (spec §2.1). */
export function pathAfterLogout(currentPath: string): string {
  const pathname = currentPath.split(/[?#]/)[0] ?? "";
  return studyConfigurationOrSessionPath.test(pathname) ? STUDY_LOGOUT_REDIRECT_PATH : LOGOUT_REDIRECT_PATH;
}

/** Atelier's pages for @atelier/auth's redirects (the package builds no app's pages in). */
export const atelierAuthRoutes: AuthRoutes = {
  login: LOGIN_PATH,
  afterLogin: LOGIN_REDIRECT_PATH,
  afterLogout: pathAfterLogout,
  afterReauthentication: "/",
  flows: flowPaths,
};
