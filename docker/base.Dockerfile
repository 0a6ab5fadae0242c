# A stand-in for node:24-bookworm-slim where no image registry is reachable: a Debian bookworm
# minbase (debootstrap, imported as ROOTFS) with the Node 24 and npm of the npm registry's packages.
# scripts/image-base.sh lays out the context (node/, npm/, npmrc) and builds it as till-node24-base.
ARG ROOTFS=till-bookworm-minbase
FROM ${ROOTFS}
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# npm's global configuration (prefix /usr/local): the certificate bundle the machine's registry
# traffic needs, when it has one of its own.
COPY npmrc npm-ca.crt /usr/local/etc/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["node"]
