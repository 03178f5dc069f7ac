# Two stages: build a wheel-installed virtualenv, then copy it into a slim runtime image.
FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY runtime ./runtime
COPY storage ./storage
# With the PostgreSQL driver: one image runs on SQLite (the default) or DATABASE_URL.
RUN /venv/bin/pip install --no-cache-dir '.[postgresql]'

FROM python:3.11-slim
# The database lives on the /data volume, which outlives the container. DATABASE_PATH below
# says so; and data/ in the working directory is /data too, so a relative DATABASE_PATH (an
# old .env's `data/bot.sqlite3`, or an empty `DATABASE_PATH=` meaning the default) lands there.
RUN useradd --create-home --uid 10001 bot && mkdir /data && chown bot:bot /data \
    && ln -s /data /home/bot/data
COPY --from=build /venv /venv
# METRICS_PORT: /healthz (the HEALTHCHECK below) and /metrics (Prometheus) are served; on
# every address of the container (METRICS_HOST), reachable from its compose network only,
# unless a port is published.
ENV PATH="/venv/bin:$PATH" \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3 \
    METRICS_PORT=8080 \
    METRICS_HOST=0.0.0.0
USER 10001:10001
WORKDIR /home/bot
VOLUME ["/data"]
EXPOSE 8080
# Healthy while the bot's /healthz answers 200: its gateway is connected and its database
# answers (compose.yaml's bot services check the same). start-period: PostgreSQL may still be
# starting (DATABASE_WAIT), then the bot logs in.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
CMD ["python", "-m", "bot"]
