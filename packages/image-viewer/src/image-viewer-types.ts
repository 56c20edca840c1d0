export interface ImageViewerSource {
  type: string;
  srcSet: string;
}

export interface ImageViewerImage {
  id: string;
  src: string;
  alt: string;
  /** Natural size of `src`: 100 % zoom shows it pixel for pixel. */
  width: number;
  height: number;
  sources?: ImageViewerSource[];
}
