# Two stages: build a wheel-installed virtualenv, then copy it into a slim runtime image.
FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
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
ENV PATH="/venv/bin:$PATH" \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3
USER 10001:10001
WORKDIR /home/bot
VOLUME ["/data"]
# Healthy while PID 1 is still the bot (compose.yaml's bot services check the same).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD tr '\0' ' ' </proc/1/cmdline | grep -q -- ' -m bot $'
CMD ["python", "-m", "bot"]
