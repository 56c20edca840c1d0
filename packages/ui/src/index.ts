// Every public export, by name. Styles are imported separately: `import "@atelier/ui/styles.css"`.

export { Button, ButtonLink } from "./button/button";
export type { ButtonProps, ButtonLinkProps, ButtonVariant, ButtonSize } from "./button/button";

export { Card, CardMedia, CardBody, CardTitle, CardFooter } from "./card/card";
export type { CardProps, CardMediaProps, CardTitleProps, CardTitleHeadingLevel } from "./card/card";

export { Badge } from "./badge/badge";
export type { BadgeProps, BadgeTone } from "./badge/badge";

export { Dialog, DialogTrigger, DialogContent, DialogClose } from "./dialog/dialog";
export type { DialogProps, DialogTriggerProps, DialogContentProps, DialogCloseProps } from "./dialog/dialog";
export { ConfirmDialog } from "./dialog/confirm-dialog";
export type { ConfirmDialogProps } from "./dialog/confirm-dialog";

export { Slider } from "./slider/slider";
export type { SliderProps } from "./slider/slider";

export { Spinner } from "./spinner/spinner";
export type { SpinnerProps, SpinnerSize } from "./spinner/spinner";

export { Pagination } from "./pagination/pagination";
export type { PaginationProps } from "./pagination/pagination";
export { computeVisiblePageNumbers } from "./pagination/compute-visible-page-numbers";


export {
  THEME_STORAGE_KEY,
  readStoredTheme,
  storeTheme,
  resolveInitialTheme,
  applyThemeToDocument,
  themeInitializationScript,
} from "./theme-toggle/theme-core";
export type { ThemeName, ThemeStorage, StoreThemeResult } from "./theme-toggle/theme-core";
export { ThemeToggle } from "./theme-toggle/theme-toggle";
export type { ThemeToggleProps } from "./theme-toggle/theme-toggle";
