import { useEffect, useRef } from "react";

declare global {
  interface Window {
    FB?: { XFBML: { parse: (element?: Element) => void } };
  }
}

const FACEBOOK_SDK_URL = "https://connect.facebook.net/en_US/sdk.js#xfbml=1&version=v19.0";

/** The social network's page plugin with its timeline and events tabs, 500 by 700 (spec 2.7). */
export function FacebookPageTimeline({ pageUrl, width, height }: { pageUrl: string; width: number; height: number }) {
  const containerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The SDK parses the page once when it loads; on a later visit it is already there and must be asked to re-parse.
    if (window.FB) {
      if (containerRef.current) window.FB.XFBML.parse(containerRef.current);
      return;
    }
    if (document.getElementById("facebook-jssdk")) return;
    const script = document.createElement("script");
    script.id = "facebook-jssdk";
    script.async = true;
    script.defer = true;
    script.crossOrigin = "anonymous";
    script.src = FACEBOOK_SDK_URL;
    document.body.append(script);
  }, []);
  return (
    <div ref={containerRef}>
      <div id="fb-root" />
      <div className="fb-page" data-href={pageUrl} data-tabs="timeline,events" data-width={width} data-height={height} data-small-header="false" data-hide-cover="false">
        <blockquote cite={pageUrl} className="fb-xfbml-parse-ignore">
          <a href={pageUrl}>Our page</a>
        </blockquote>
      </div>
    </div>
  );
}
