# gtmgate container image. Nothing is fetched or compiled here: `make image`
# first builds a static binary and the image's few files into bin/image/
# (`make image-binary`), and this file only copies them into an empty image.
FROM scratch

COPY bin/image/etc/passwd /etc/passwd
COPY bin/image/etc/group /etc/group
COPY bin/image/etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --chown=65532:65532 bin/image/data /data
COPY bin/image/gtmgate /usr/local/bin/gtmgate

# A non-root user (listed in /etc/passwd above); data lives in a volume.
USER 65532:65532
ENV GTMGATE_DATA_DIR=/data \
    GTMGATE_SITE_ADDR=0.0.0.0:8080 \
    GTMGATE_GATEWAY_ADDR=0.0.0.0:8081 \
    GTMGATE_DOCS_ADDR=0.0.0.0:8082
VOLUME ["/data"]
EXPOSE 8080 8081 8082

# The image has no shell or curl: the binary checks its own /health/ready
# (200 while it can serve calls, a store outage it rides out included).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/gtmgate", "health"]

ENTRYPOINT ["/usr/local/bin/gtmgate"]
CMD ["serve"]
