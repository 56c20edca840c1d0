import { artistProfile, COPYRIGHT_YEAR } from "@atelier/catalogue";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Licence",
    description: "The licence of this site's software, what it allows, and answers to common questions. The paintings and photographs stay the artist's.",
    path: "/Licence",
  });

export default function LicencePage() {
  return (
    <article className="page page--narrow prose">
      <h1>Licence</h1>
      <p>
        The software that runs this site is published under a permissive open-source licence, in the spirit of the MIT licence. The paintings, their
        photographs and the texts about them are not covered by it: they remain © {COPYRIGHT_YEAR} {artistProfile.name}, all rights reserved.
      </p>

      <h2>The licence</h2>
      <p>
        Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"),
        to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense,
        and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following condition: the above
        copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.
      </p>
      <p>
        THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
        FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
        LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
        THE SOFTWARE.
      </p>

      <h2>Frequently asked questions</h2>
      <dl className="faq">
        <dt>May I reuse the code of this site?</dt>
        <dd>Yes, for any purpose, commercial or not, as long as you keep the copyright and permission notice.</dd>
        <dt>May I use pictures of the paintings?</dt>
        <dd>Not without permission. Write to us through the contact page: we are usually happy to agree for press and education.</dd>
        <dt>Does buying a painting give me its reproduction rights?</dt>
        <dd>No. You own the original; the right to reproduce it stays with the artist, as Swiss copyright law provides.</dd>
        <dt>Is there a warranty on the software?</dt>
        <dd>No. It is provided as is, as the licence says.</dd>
      </dl>
    </article>
  );
}
