//! A fresh PostgreSQL database for each test that needs one.

#![allow(dead_code)]

pub fn postgres_admin_url() -> String {
    std::env::var("NUTSHELL_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// A fresh, empty PostgreSQL database for one test, or `None` (said on
/// stderr) when none is reachable and `NUTSHELL_REQUIRE_POSTGRES` is unset:
/// `.ci/run` sets it, so CI fails rather than skips.
pub async fn fresh_postgres(test: &str) -> Option<String> {
    use sqlx::Connection;
    let admin = postgres_admin_url();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let name = format!(
        "nutshell_test_{now}_{}",
        nutshell_server::fair::random_token(4).unwrap()
    );
    let mut conn = match sqlx::PgConnection::connect(&admin).await {
        Ok(conn) => conn,
        Err(error) if std::env::var_os("NUTSHELL_REQUIRE_POSTGRES").is_none() => {
            eprintln!(
                "SKIPPED postgres::{test}: no PostgreSQL at {admin} ({error}); set NUTSHELL_TEST_POSTGRES to a reachable server, NUTSHELL_REQUIRE_POSTGRES=1 to fail instead"
            );
            return None;
        }
        Err(error) => panic!(
            "PostgreSQL required (NUTSHELL_REQUIRE_POSTGRES) but {admin} is unreachable: {error}"
        ),
    };
    // Databases of earlier runs, over an hour old, are dropped (the names are
    // ours: a fixed prefix, the creation time and hex digits).
    let old: Vec<(String,)> = sqlx::query_as(
        "SELECT datname::text FROM pg_database WHERE datname LIKE 'nutshell_test_%'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    for (old,) in old {
        let created = old.split('_').nth(2).and_then(|t| t.parse::<u64>().ok());
        if created.is_some_and(|t| t + 3600 < now) {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {old}"
            )))
            .execute(&mut conn)
            .await;
        }
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .unwrap();
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
    Some(format!("{base}/{name}"))
}
