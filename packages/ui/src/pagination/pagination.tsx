import type { ComponentPropsWithRef } from "react";
import { joinClassNames } from "../class-names";
import { computeVisiblePageNumbers } from "./compute-visible-page-numbers";

export interface PaginationProps extends Omit<ComponentPropsWithRef<"nav">, "onChange"> {
  /** 1-based. */
  currentPage: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Maximum number of page-number buttons; defaults to 5. */
  maximumVisiblePages?: number;
  /** Accessible name of the `<nav>` landmark. */
  navigationLabel?: string;
  previousLabel?: string;
  nextLabel?: string;
  /** Accessible name of a page button; defaults to `Page 3`. */
  getPageLabel?: (page: number) => string;
}

function defaultPageLabel(page: number): string {
  return `Page ${page}`;
}

/**
 * Previous/Next buttons around at most five page numbers centred on the current page.
 * Renders nothing when there is only one page.
 *
 * @example
 * <Pagination currentPage={page} pageCount={12} onPageChange={(nextPage) => navigate(`?page=${nextPage}`)} />
 */
export function Pagination({
  currentPage,
  pageCount,
  onPageChange,
  maximumVisiblePages = 5,
  navigationLabel = "Pagination",
  previousLabel = "Previous",
  nextLabel = "Next",
  getPageLabel = defaultPageLabel,
  className,
  ...navProps
}: PaginationProps) {
  if (pageCount <= 1) return null;
  const visiblePageNumbers = computeVisiblePageNumbers(currentPage, pageCount, maximumVisiblePages);

  return (
    <nav aria-label={navigationLabel} className={joinClassNames("atelier-pagination", className)} {...navProps}>
      <ul className="atelier-pagination__list">
        <li>
          <button
            type="button"
            className="atelier-pagination__button atelier-pagination__button--previous"
            disabled={currentPage <= 1}
            onClick={() => onPageChange(currentPage - 1)}
          >
            {previousLabel}
          </button>
        </li>
        {visiblePageNumbers.map((page) => {
          const isCurrentPage = page === currentPage;
          return (
            <li key={page}>
              <button
                type="button"
                className="atelier-pagination__button"
                aria-label={getPageLabel(page)}
                aria-current={isCurrentPage ? "page" : undefined}
                data-state={isCurrentPage ? "current" : "inactive"}
                onClick={() => {
                  if (!isCurrentPage) onPageChange(page);
                }}
              >
                {page}
              </button>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            className="atelier-pagination__button atelier-pagination__button--next"
            disabled={currentPage >= pageCount}
            onClick={() => onPageChange(currentPage + 1)}
          >
            {nextLabel}
          </button>
        </li>
      </ul>
    </nav>
  );
}
