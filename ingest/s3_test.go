package ingest

import (
	"net/url"
	"strings"
	"testing"
)

// Where a request goes: the bucket in front of the regional host, in the
// path when its name has dots or the URL asks for it, under a custom
// endpoint's own path, and the regional variants' hosts.
func TestS3RequestURLs(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	for _, tc := range []struct{ arg, key, want string }{
		{"s3://logs/?region=eu-west-1", "day 1/a.jsonl", "https://logs.s3.eu-west-1.amazonaws.com/day%201/a.jsonl"},
		{"s3://my.logs/?region=eu-west-1", "a.jsonl", "https://s3.eu-west-1.amazonaws.com/my.logs/a.jsonl"},
		{"s3://logs/?region=us-east-1&use_path_style=true", "a", "https://s3.us-east-1.amazonaws.com/logs/a"},
		{"s3://logs/?region=cn-north-1", "a", "https://logs.s3.cn-north-1.amazonaws.com.cn/a"},
		{"s3://logs/?region=us-east-2&fips=true&dualstack=true", "a", "https://logs.s3-fips.dualstack.us-east-2.amazonaws.com/a"},
		{"s3://logs/?region=us-east-2&accelerate=true", "a", "https://logs.s3-accelerate.amazonaws.com/a"},
		{"s3://logs/?endpoint=http://minio.internal:9000/store&use_path_style=true", "k(1)", "http://minio.internal:9000/store/logs/k%281%29"},
		{"s3://logs/?endpoint=https://acct.r2.cloudflarestorage.com&region=auto", "a", "https://logs.acct.r2.cloudflarestorage.com/a"},
	} {
		u, _ := url.Parse(tc.arg)
		b, err := openS3Bucket(t.Context(), u)
		if err != nil {
			t.Errorf("%s: %v", tc.arg, err)
			continue
		}
		if got := b.(*s3Bucket).objectURL(tc.key).String(); got != tc.want {
			t.Errorf("%s, key %q: %s, want %s", tc.arg, tc.key, got, tc.want)
		}
	}
	for arg, want := range map[string]string{
		"s3://logs/":                        "no AWS region",
		"s3://logs/?region=x&grpc=1":        `unknown parameter "grpc"`,
		"s3://logs/?region=x&fips=maybe":    `invalid value for "fips"`,
		"s3://logs/?region=x&role=admin":    "want an ARN",
		"s3://logs/?endpoint=not%20a%20url": "is not a URL",
	} {
		u, _ := url.Parse(arg)
		if _, err := openS3Bucket(t.Context(), u); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want one saying %q", arg, err, want)
		}
	}
}
